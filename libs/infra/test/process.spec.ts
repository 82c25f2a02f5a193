import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../src/free-port.js';
import { startProcess } from '../src/process.js';
import { isAlive } from './process-helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'infra-process-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A Node program written to a file, run with this Node. */
function program(name: string, source: string): { command: string; args: string[] } {
  const file = join(dir, `${name}.cjs`);
  writeFileSync(file, source);
  return { command: process.execPath, args: [file] };
}

describe('startProcess', () => {
  it('is ready when a line says so, keeps its output and a log file, and stops with SIGTERM', async () => {
    const logFile = join(dir, 'line.log');
    const started = await startProcess({
      name: 'liner',
      ...program(
        'liner',
        "console.log('warming'); setTimeout(() => console.error('READY 42'), 100); setInterval(() => {}, 1000);",
      ),
      readyWhen: (line) => /^READY (\d+)$/.exec(line)?.[1],
      timeoutMs: 10_000,
      logFile,
    });
    expect(started.ready).toBe('42');
    expect(started.output()).toBe('warming\nREADY 42');
    expect(isAlive(started.pid)).toBe(true);
    await started.stop();
    expect(await started.exited).toEqual({ code: null, signal: 'SIGTERM' });
    expect(isAlive(started.pid)).toBe(false);
    expect(readFileSync(logFile, 'utf8')).toBe('warming\nREADY 42\n');
  });

  it('is ready when a URL answers, the child writing its log file itself; kill() is a SIGKILL', async () => {
    const port = await freePort();
    const logFile = join(dir, 'url.log');
    const started = await startProcess({
      name: 'server',
      ...program(
        'server',
        `console.log('hello'); setTimeout(() => require('node:http').createServer((q, a) => a.end('ok')).listen(${port}, '127.0.0.1'), 300);`,
      ),
      readyUrl: `http://127.0.0.1:${port}/`,
      timeoutMs: 10_000,
      logFile,
    });
    expect(await (await fetch(`http://127.0.0.1:${port}/`)).text()).toBe('ok');
    expect(started.output()).toBe('hello');
    await started.kill();
    expect((await started.exited).signal).toBe('SIGKILL');
  });

  it('fails with the last output when the process exits before it is ready', async () => {
    await expect(
      startProcess({
        name: 'crasher',
        ...program('crasher', "console.error('boom: no config'); process.exit(3);"),
        readyWhen: (line) => (line === 'READY' ? true : undefined),
        timeoutMs: 10_000,
      }),
    ).rejects.toThrow(/crasher: exited before it was ready \(exit code 3\)\nlast output:\nboom: no config/);
  });

  it('stops a process that is not ready in time, and one that ignores SIGTERM gets SIGKILL after the grace', async () => {
    const pidFile = join(dir, 'stubborn.pid');
    // Long enough for Node to start and ignore SIGTERM before it is stopped, on a busy runner too (it took
    // over 500 ms with one core taken by a burner): the pid file is written once SIGTERM is ignored.
    const timeoutMs = 5_000;
    const started = Date.now();
    await expect(
      startProcess({
        name: 'stubborn',
        ...program(
          'stubborn',
          `process.on('SIGTERM', () => {}); require('node:fs').writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); setInterval(() => {}, 1000);`,
        ),
        readyWhen: (line) => (line === 'READY' ? true : undefined),
        timeoutMs,
        stopGraceMs: 300,
      }),
    ).rejects.toThrow(/stubborn: not ready within 5000 ms/);
    // It waited for readiness as long as it was told to, no less.
    expect(Date.now() - started).toBeGreaterThanOrEqual(timeoutMs);
    // It ignored SIGTERM, and is gone: the SIGKILL after the grace.
    expect(existsSync(pidFile), 'the child started and ignored SIGTERM').toBe(true);
    expect(isAlive(Number(readFileSync(pidFile, 'utf8')))).toBe(false);
  });

  it('fails at once for a command that does not exist', async () => {
    await expect(
      startProcess({ name: 'ghost', command: join(dir, 'no-such-program'), args: [], timeoutMs: 10_000 }),
    ).rejects.toThrow(/ghost: cannot start .*no-such-program: spawn .* ENOENT/);
  });
});
