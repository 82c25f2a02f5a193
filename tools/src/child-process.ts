import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import type { ExitInfo } from '@shop/testing';

export interface ManagedProcess {
  name: string;
  child: ChildProcess;
  logFile: string;
  /** Settles when the process has ended, however it ended. */
  exited: Promise<ExitInfo>;
  stop(): Promise<void>;
}

const live = new Set<ChildProcess>();
// A runner killed by an error must not leave services behind.
process.once('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

/** The last lines a process wrote, for error messages. */
export function tailOf(logFile: string, lines = 15): string {
  try {
    return readFileSync(logFile, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no output)';
  }
}

/**
 * Starts a Node program with its output appended to a log file. The child writes the file itself: relaying
 * every line through a pipe to this process cost CPU per request on the cores the services share.
 */
export function startNodeProcess(
  name: string,
  script: string,
  env: NodeJS.ProcessEnv,
  logFile: string,
): ManagedProcess {
  const log = openSync(logFile, 'a');
  let child: ChildProcess;
  try {
    child = spawn(process.execPath, [script], { env, stdio: ['ignore', log, log] });
  } finally {
    closeSync(log);
  }
  live.add(child);
  const exited = new Promise<ExitInfo>((resolve) => {
    child.once('exit', (code, signal) => {
      live.delete(child);
      resolve({ code, signal });
    });
  });
  return {
    name,
    child,
    logFile,
    exited,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Polls a URL until it answers 2xx; fails early if the process dies, with its last output. */
export async function waitUntilReady(
  processInfo: ManagedProcess,
  url: string,
  // Six services loading Nest and the OpenTelemetry SDK at once on two busy cores have taken over a minute.
  timeoutMs = 120_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (processInfo.child.exitCode !== null) {
      throw new Error(`${processInfo.name} exited during start-up:\n${tailOf(processInfo.logFile)}`);
    }
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(
    `${processInfo.name} was not ready within ${timeoutMs} ms:\n${tailOf(processInfo.logFile)}`,
  );
}
