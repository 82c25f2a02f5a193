import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, createWriteStream, openSync, readFileSync, type WriteStream } from 'node:fs';
import { createInterface } from 'node:readline';

/** How a process ended: its exit code, or the signal that ended it. */
export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/**
 * A process started and watched for us: the one shape every launcher answers (the embedded servers, a
 * service, Jaeger, VictoriaMetrics), and what the supervisor restarts.
 */
export interface ManagedProcess {
  readonly name: string;
  readonly pid: number;
  /** Settles when the process has ended, however it ended (a supervisor restarts it on that). */
  readonly exited: Promise<ExitInfo>;
  /** The last lines it wrote, for error messages. */
  output(): string;
  /** SIGTERM, then SIGKILL after a grace (5 s); resolves once the process is gone. Safe to call twice. */
  stop(): Promise<void>;
  /** SIGKILL at once, as a crash would; resolves once the process is gone. */
  kill(): Promise<void>;
}

export interface ProcessOptions<T> {
  /** Human name used in error messages, e.g. "embedded MongoDB". */
  name: string;
  command: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
  /**
   * Ready when this answers something other than undefined for a line of output (stdout or stderr),
   * which is then the `ready` value. The output is read through this process (and appended to `logFile`).
   */
  readyWhen?: (line: string) => T | undefined;
  /**
   * Ready when this URL answers 2xx. With a `logFile`, the child writes it itself: relaying every line
   * through a pipe cost CPU per request on the cores the services share.
   */
  readyUrl?: string;
  /** How long readiness may take; the process is stopped when it is not ready by then. */
  timeoutMs: number;
  logFile?: string;
  /** Keeps a pipe open to the child's stdin, for children that exit when it closes. */
  keepStdin?: boolean;
  /** What the child is sent when this process exits first ('exit' handlers can only signal): SIGKILL. */
  signalOnExit?: NodeJS.Signals;
  /** How long `stop()` waits after SIGTERM before SIGKILL (5 s). */
  stopGraceMs?: number;
}

const STOP_GRACE_MS = 5_000;
const KEPT_LINES = 60;
const live = new Map<ChildProcess, NodeJS.Signals>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // A runner or test killed by an error must not leave servers behind.
  process.once('exit', () => {
    for (const [child, signal] of live) child.kill(signal);
  });
}

/** The last lines of a file, for error messages. */
export function tailOf(logFile: string, lines = 15): string {
  try {
    return readFileSync(logFile, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no output)';
  }
}

/** Whether a URL answers 2xx now. */
async function answers(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
    await response.body?.cancel();
    return response.ok;
  } catch {
    return false;
  }
}

/**
 * Starts a process and resolves once it is ready: a line of its output says so (`readyWhen`), a URL
 * answers (`readyUrl`), or, with neither, once it has spawned. A process that exits, cannot start or is
 * not ready in time fails the start with its last output, and is never left running.
 */
export function startProcess<T = undefined>(
  options: ProcessOptions<T>,
): Promise<ManagedProcess & { ready: T }> {
  installExitHook();
  const direct = options.logFile !== undefined && options.readyWhen === undefined;
  let child: ChildProcess;
  if (direct) {
    const fd = openSync(options.logFile!, 'a');
    try {
      child = spawn(options.command, options.args, {
        env: options.env ?? process.env,
        stdio: [options.keepStdin ? 'pipe' : 'ignore', fd, fd],
      });
    } finally {
      closeSync(fd);
    }
  } else {
    child = spawn(options.command, options.args, {
      env: options.env ?? process.env,
      stdio: [options.keepStdin ? 'pipe' : 'ignore', 'pipe', 'pipe'],
    });
  }
  live.set(child, options.signalOnExit ?? 'SIGKILL');

  const recent: string[] = [];
  const log: WriteStream | undefined =
    !direct && options.logFile ? createWriteStream(options.logFile, { flags: 'a' }) : undefined;
  const exited = new Promise<ExitInfo>((resolve) => {
    // 'close' comes after the output streams have ended, so the last words are in.
    child.once('close', (code, signal) => {
      live.delete(child);
      log?.end();
      resolve({ code, signal });
    });
  });
  const output = (): string => (direct ? tailOf(options.logFile!, 30) : recent.join('\n') || '(no output)');
  const gone = (): boolean => child.exitCode !== null || child.signalCode !== null;

  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      if (child.pid === undefined || gone()) {
        if (child.pid !== undefined) await exited;
        return;
      }
      child.kill('SIGTERM');
      const killTimer = setTimeout(() => child.kill('SIGKILL'), options.stopGraceMs ?? STOP_GRACE_MS);
      await exited;
      clearTimeout(killTimer);
    })();
    return stopping;
  };
  const kill = async (): Promise<void> => {
    if (child.pid === undefined) return;
    if (!gone()) child.kill('SIGKILL');
    await exited;
  };
  const handle = (): ManagedProcess => ({
    name: options.name,
    pid: child.pid ?? -1,
    exited,
    output,
    stop,
    kill,
  });

  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = (action: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      action();
    };
    const succeed = (ready: T): void => settle(() => resolve({ ...handle(), ready }));
    const fail = (message: string): void =>
      settle(() => {
        void stop().finally(() =>
          reject(new Error(`${options.name}: ${message}\nlast output:\n${output()}`)),
        );
      });
    const timer = setTimeout(() => fail(`not ready within ${options.timeoutMs} ms`), options.timeoutMs);

    const onLine = (line: string): void => {
      recent.push(line);
      if (recent.length > KEPT_LINES) recent.shift();
      log?.write(`${line}\n`);
      if (settled || !options.readyWhen) return;
      const ready = options.readyWhen(line);
      if (ready !== undefined) succeed(ready);
    };
    // Both streams are read for the whole life of the child: an unread pipe would eventually block it.
    if (child.stdout) createInterface({ input: child.stdout }).on('line', onLine);
    if (child.stderr) createInterface({ input: child.stderr }).on('line', onLine);

    child.once('error', (error) => fail(`cannot start ${options.command}: ${error.message}`));
    void exited.then(({ code, signal }) =>
      fail(`exited before it was ready (${signal ?? `exit code ${code}`})`),
    );

    if (options.readyUrl) {
      const url = options.readyUrl;
      void (async () => {
        while (!settled) {
          if (await answers(url)) return succeed(undefined as T);
          await new Promise((wait) => setTimeout(wait, 200));
        }
      })();
    } else if (!options.readyWhen) {
      child.once('spawn', () => succeed(undefined as T));
    }
  });
}
