import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test as base, expect } from '@playwright/test';
import { type RunningStack, startStack } from '@shop/tools';

// Its own shop, supervised as `npm start` runs it, with its data on disk so a killed database comes back
// with it. No browser: this is about the runner.
const test = base.extend<object, { supervised: { stack: RunningStack; lines: string[] } }>({
  supervised: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const dataDir = mkdtempSync(join(tmpdir(), 'shop-supervised-'));
      const lines: string[] = [];
      const stack = await startStack({
        ports: 'free',
        dataDir,
        supervise: true,
        log: (line) => lines.push(line),
      });
      await use({ stack, lines });
      await stack.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
    { scope: 'worker', timeout: 180_000 },
  ],
});

/** Polls until the catalogue answers 200 again; answers how long that took. */
async function catalogueAnswersAgain(url: string, withinMs: number): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < withinMs) {
    const status = await fetch(`${url}/api/products?pageSize=1`, { signal: AbortSignal.timeout(2_000) })
      .then((response) => response.status)
      .catch(() => 0);
    if (status === 200) return Date.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the catalogue did not answer within ${withinMs} ms`);
}

for (const part of ['products', 'mongo', 'nats'] as const) {
  test(`npm start's runner restarts ${part} after kill -9 and says so`, async ({ supervised }) => {
    const { stack, lines } = supervised;
    const before = stack.pidOf(part)!;
    expect(before).toBeGreaterThan(0);
    const seen = lines.length;

    process.kill(before, 'SIGKILL');

    await expect
      .poll(() => lines.slice(seen).join('\n'), { timeout: 20_000 })
      .toMatch(new RegExp(`✗ ${part} exited unexpectedly \\(signal SIGKILL\\); restarting in 0\\.5 s`));
    await expect
      .poll(() => lines.slice(seen).join('\n'), { timeout: 30_000 })
      .toMatch(new RegExp(`✓ ${part} is ready again`));
    expect(stack.pidOf(part)).not.toBe(before);
    expect(await catalogueAnswersAgain(stack.url, 15_000)).toBeLessThan(15_000);
  });
}
