import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startProcess } from '@shop/infra';
import { describeExit, nextDelay, supervise, type PartRun, type SupervisorOptions } from './supervisor.js';

const dir = mkdtempSync(join(tmpdir(), 'supervisor-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A real child process that runs until killed (the supervisor watches processes, so no stand-in here). */
function sleeper(): () => Promise<PartRun> {
  const script = join(dir, 'sleeper.cjs');
  writeFileSync(script, 'setInterval(() => {}, 1000);');
  return async () => {
    return startProcess({
      name: 'sleeper',
      command: process.execPath,
      args: [script],
      logFile: join(dir, 'sleeper.log'),
      timeoutMs: 5_000,
    });
  };
}

async function until(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Supervises a part, keeping the lines the supervisor says about it. */
async function supervised(
  name: string,
  start: () => Promise<PartRun>,
  options: Omit<SupervisorOptions, 'log'>,
) {
  const lines: string[] = [];
  const part = await supervise(name, start, { log: (line) => lines.push(line), ...options });
  return { part, lines };
}

const settings = { initialDelayMs: 500, maxDelayMs: 10_000, healthyAfterMs: 60_000 };

describe('nextDelay', () => {
  it('starts at half a second, doubles after short runs up to ten seconds, and resets after a healthy minute', () => {
    let delay: number | undefined;
    const waits: number[] = [];
    for (let crash = 0; crash < 7; crash += 1) {
      delay = nextDelay(delay, 1_000, settings);
      waits.push(delay);
    }
    expect(waits).toEqual([500, 1_000, 2_000, 4_000, 8_000, 10_000, 10_000]);
    expect(nextDelay(10_000, 60_000, settings)).toBe(500);
  });
});

describe('supervise', () => {
  it('restarts a process killed with SIGKILL and says what died and when it is back', async () => {
    const { part, lines } = await supervised('sleeper', sleeper(), { initialDelayMs: 50 });
    const firstPid = part.pid()!;
    process.kill(firstPid, 'SIGKILL');

    await until(() => part.restarts() === 1);
    expect(part.pid()).not.toBe(firstPid);
    expect(lines[0]).toBe('✗ sleeper exited unexpectedly (signal SIGKILL); restarting in 0.1 s');
    expect(lines[1]).toMatch(/^✓ sleeper is ready again \(\d+\.\d s to start\)$/);
    await part.stop();
  });

  it('does not restart what it was asked to stop, and leaves no process behind', async () => {
    const { part, lines } = await supervised('sleeper', sleeper(), { initialDelayMs: 50 });
    const pid = part.pid()!;
    await part.stop();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(lines).toEqual([]);
    expect(part.restarts()).toBe(0);
    expect(() => process.kill(pid, 0)).toThrow();
  });

  it('keeps trying with a growing wait while the part cannot start, and reports each failure', async () => {
    const start = sleeper();
    let failuresLeft = 0;
    const { part, lines } = await supervised(
      'flaky',
      async () => {
        if (failuresLeft > 0) {
          failuresLeft -= 1;
          throw new Error('port 3001 is in use');
        }
        return start();
      },
      { initialDelayMs: 20 },
    );
    failuresLeft = 2;
    process.kill(part.pid()!, 'SIGKILL');
    await until(() => part.restarts() === 1);
    expect(lines).toEqual([
      '✗ flaky exited unexpectedly (signal SIGKILL); restarting in 0.0 s',
      '✗ flaky failed to start again (port 3001 is in use); restarting in 0.0 s',
      '✗ flaky failed to start again (port 3001 is in use); restarting in 0.1 s',
      expect.stringMatching(/^✓ flaky is ready again/),
    ]);
    await part.stop();
  });

  it('names an exit code', () => {
    expect(describeExit({ code: 1, signal: null })).toBe('exit code 1');
  });
});

describe('supervise during a shutdown', () => {
  it('neither restarts nor reports a part that ends while the shop is shutting down', async () => {
    let shuttingDown = false;
    const { part, lines } = await supervised('sleeper', sleeper(), {
      initialDelayMs: 20,
      shouldRestart: () => !shuttingDown,
    });
    const pid = part.pid()!;
    shuttingDown = true;
    // As a terminal's Ctrl-C does: the signal reaches the part before the runner stops it.
    process.kill(pid, 'SIGINT');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(lines).toEqual([]);
    expect(part.restarts()).toBe(0);
    await part.stop();
  });
});
