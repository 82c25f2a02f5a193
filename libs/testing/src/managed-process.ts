import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, type WriteStream } from 'node:fs';
import { createInterface } from 'node:readline';

export interface ManagedProcessOptions<T> {
  /** Human name used in error messages, e.g. "embedded MongoDB". */
  name: string;
  command: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
  /** Called with each output line (stdout and stderr); the first non-undefined answer means "ready". */
  readyWhen: (line: string) => T | undefined;
  timeoutMs: number;
  /** Appends the process's output to this file as well. */
  logFile?: string;
  /** Keeps a pipe open to the child's stdin, for children that exit when it closes. */
  keepStdin?: boolean;
}

/** How a process ended: its exit code, or the signal that ended it. */
export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ManagedProcess {
  readonly pid: number;
  /** Settles when the process has ended, however it ended (a supervisor restarts it on that). */
  readonly exited: Promise<ExitInfo>;
  /** SIGTERM, then SIGKILL after 5 s; resolves once the process is gone. Safe to call twice. */
  stop(): Promise<void>;
}

const STOP_GRACE_MS = 5_000;
const KEPT_LINES = 40;
const live = new Set<ChildProcess>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // 'exit' handlers must be synchronous: a signal is all that can be sent here.
  process.once('exit', () => {
    for (const child of live) child.kill('SIGTERM');
  });
}

/** Starts a server process and resolves once its output says it is ready. */
export function startManagedProcess<T>(
  options: ManagedProcessOptions<T>,
): Promise<{ process: ManagedProcess; ready: T }> {
  installExitHook();
  const child = spawn(options.command, options.args, {
    env: options.env ?? process.env,
    stdio: [options.keepStdin ? 'pipe' : 'ignore', 'pipe', 'pipe'],
  });
  live.add(child);

  const recent: string[] = [];
  const log: WriteStream | undefined = options.logFile
    ? createWriteStream(options.logFile, { flags: 'a' })
    : undefined;
  const exited = new Promise<ExitInfo>((resolve) => {
    child.once('close', (code, signal) => {
      live.delete(child);
      log?.end();
      resolve({ code, signal });
    });
  });
  const lastOutput = (): string =>
    recent.length > 0 ? `\nlast output:\n${recent.join('\n')}` : '\n(no output)';

  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      if (child.pid === undefined) return; // never started
      if (child.exitCode !== null || child.signalCode !== null) {
        await exited;
        return;
      }
      child.kill('SIGTERM');
      const killTimer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
      await exited;
      clearTimeout(killTimer);
    })();
    return stopping;
  };

  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = (action: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      action();
    };
    const fail = (message: string): void =>
      settle(() => {
        void stop().finally(() => reject(new Error(`${options.name}: ${message}${lastOutput()}`)));
      });

    const timer = setTimeout(() => fail(`not ready within ${options.timeoutMs} ms`), options.timeoutMs);

    const onLine = (line: string): void => {
      recent.push(line);
      if (recent.length > KEPT_LINES) recent.shift();
      log?.write(`${line}\n`);
      if (settled) return;
      const ready = options.readyWhen(line);
      if (ready !== undefined) {
        settle(() => resolve({ process: { pid: child.pid ?? -1, exited, stop }, ready }));
      }
    };
    // Both streams are read for the whole life of the child: an unread pipe would eventually block it.
    if (child.stdout) createInterface({ input: child.stdout }).on('line', onLine);
    if (child.stderr) createInterface({ input: child.stderr }).on('line', onLine);

    child.once('error', (error) => fail(`cannot start ${options.command}: ${error.message}`));
    // 'close' comes after the output streams have ended, so the message shows the last words.
    child.once('close', (code, signal) =>
      fail(`exited before it was ready (${signal ?? `exit code ${code}`})`),
    );
  });
}
