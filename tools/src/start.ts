import { join } from 'node:path';
import { REPO_ROOT, startStack } from './stack.js';

/** `npm start`: the whole shop on the documented ports, data kept under .data/, Ctrl-C stops it all. */
async function main(): Promise<void> {
  const dataDir = join(REPO_ROOT, '.data');
  const stack = await startStack({ ports: 'default', dataDir, log: (line) => console.log(`  ${line}`) });
  console.log(`\n  The shop is running at ${stack.url}\n  Logs: ${stack.logDir}\n  Press Ctrl-C to stop.\n`);
  let stopping = false;
  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    console.log('\n  Stopping...');
    await stack.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown());
  process.on('SIGTERM', () => void shutdown());
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
