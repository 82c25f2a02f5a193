import { type ChildProcess, spawn } from 'node:child_process';
import type { RunningStack } from '@shop/dev-stack';
import { afterEach, describe, expect, it } from 'vitest';
import { drained } from './part-clocks.js';

/** A real process standing for one part of a stack: it works for `busyMs` of CPU, then waits. */
function partWorkingFor(busyMs: number): { child: ChildProcess; stack: RunningStack } {
  const child = spawn(process.execPath, [
    '-e',
    `const end = Date.now() + ${busyMs}; while (Date.now() < end); setInterval(() => {}, 60_000);`,
  ]);
  // Only what partClocks reads of a stack: its instances' names and their process ids.
  const stack = {
    instances: [{ name: 'products' }],
    pidOf: (name: string) => (name === 'products' ? child.pid : undefined),
  } as unknown as RunningStack;
  return { child, stack };
}

let running: ChildProcess | undefined;
afterEach(() => {
  running?.kill();
  running = undefined;
});

describe('drained', () => {
  it('waits while a part is still working, and returns once it is back to its idle rate', async () => {
    const { child, stack } = partWorkingFor(2_500);
    running = child;
    const waited = await drained(stack, { products: 0 });
    expect(waited).toBeGreaterThanOrEqual(2_500);
    expect(waited).toBeLessThan(6_000);
  }, 15_000);

  it('returns after one quiet second when nothing is left to do', async () => {
    const { child, stack } = partWorkingFor(0);
    running = child;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await drained(stack, { products: 0 })).toBeLessThan(1_500);
  }, 15_000);
});
