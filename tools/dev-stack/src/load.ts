import { describeSummary, startLoad } from './load/load-generator.js';
import { parseLoadSettings } from './load/load-settings.js';

/**
 * `npm run load -- [settings] [--url <gateway>]`: shoppers against a running shop (npm start's by default)
 * until their minutes are over or Ctrl-C. Settings as SHOP_LOAD takes them (`rate=5,minutes=10,browser`;
 * docs/observability.md, "Load").
 */
async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const urlAt = args.indexOf('--url');
  const url = urlAt >= 0 ? args[urlAt + 1] : (process.env['SHOP_URL'] ?? 'http://localhost:8000');
  if (!url)
    throw new Error('usage: npm run load -- [rate=2,minutes=15,browser] [--url http://localhost:8000]');
  const settingsText = args.filter((_, index) => index !== urlAt && index !== urlAt + 1).join(',');
  const log = (line: string) => console.log(`  ${new Date().toISOString().slice(11, 19)} ${line}`);
  const load = await startLoad({ url, settings: parseLoadSettings(settingsText), log });
  const progress = setInterval(() => log(`load         so far: ${describeSummary(load.summary())}`), 30_000);
  const stop = () => void load.stop();
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  await load.done;
  clearInterval(progress);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
