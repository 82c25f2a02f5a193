import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { freePort } from './free-port.util.js';
import { repoRoot } from './tool-paths.js';

export interface ServiceProcessOptions {
  /** How long the service may take to answer `/health/ready` (default 30 s). */
  readyTimeoutMs?: number;
}

/** A built service running as its own process, as in production: `node services/<name>/dist/main.js`. */
export interface ServiceProcess {
  name: string;
  pid: number;
  port: number;
  /** `http://127.0.0.1:<port>`: the service itself, without the gateway. */
  url: string;
  /** The last lines the service wrote (for failure messages). */
  output(): string;
  /** SIGTERM (graceful shutdown), SIGKILL after 5 s; resolves once the process is gone. Safe to call twice. */
  stop(): Promise<void>;
  /** SIGKILL at once, like a crash; resolves once the process is gone. */
  kill(): Promise<void>;
}

const STOP_GRACE_MS = 5_000;
const KEPT_LINES = 60;
const live = new Set<ChildProcess>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // A test run that dies must not leave services behind; 'exit' handlers can only send signals.
  process.once('exit', () => {
    for (const child of live) child.kill('SIGKILL');
  });
}

async function isReady(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
    await response.body?.cancel();
    return response.ok;
  } catch {
    return false;
  }
}

/**
 * Starts the built service `services/<name>/dist/main.js` with exactly the given environment
 * (plus `PATH`, `HOST=127.0.0.1` and a free `PORT` unless given) and resolves once its
 * `/health/ready` answers 2xx. Tests use it for a service they need but must not import (services never import each other).
 */
export async function startServiceProcess(
  name: string,
  env: Record<string, string | undefined>,
  options: ServiceProcessOptions = {},
): Promise<ServiceProcess> {
  const main = join(repoRoot(), 'services', name, 'dist', 'main.js');
  if (!existsSync(main)) {
    throw new Error(`${main} is missing: build the service first (npm run build -w @shop/${name})`);
  }
  installExitHook();
  const port = env['PORT'] ? Number(env['PORT']) : await freePort();
  const child = spawn(process.execPath, [main], {
    env: { PATH: process.env['PATH'], HOST: '127.0.0.1', ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  live.add(child);
  let spawnError: Error | undefined;
  child.once('error', (error) => {
    spawnError = error;
  });
  const recent: string[] = [];
  const keep = (line: string): void => {
    recent.push(line);
    if (recent.length > KEPT_LINES) recent.shift();
  };
  // Both pipes are read for the whole life of the child: an unread pipe would eventually block it.
  if (child.stdout) createInterface({ input: child.stdout }).on('line', keep);
  if (child.stderr) createInterface({ input: child.stderr }).on('line', keep);
  const exited = new Promise<void>((resolve) => {
    child.once('close', () => {
      live.delete(child);
      resolve();
    });
  });
  const gone = (): boolean => child.exitCode !== null || child.signalCode !== null;
  const output = (): string => recent.join('\n') || '(no output)';

  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      if (child.pid === undefined || gone()) return exited;
      child.kill('SIGTERM');
      const killTimer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
      await exited;
      clearTimeout(killTimer);
    })();
    return stopping;
  };
  const kill = async (): Promise<void> => {
    if (child.pid !== undefined && !gone()) child.kill('SIGKILL');
    await exited;
  };

  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (options.readyTimeoutMs ?? 30_000);
  while (!(await isReady(`${url}/health/ready`))) {
    if (gone() || spawnError) {
      await exited;
      const why = spawnError?.message ?? child.signalCode ?? `exit code ${child.exitCode}`;
      throw new Error(`${name} exited during start-up (${why}):\n${output()}`);
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`${name} was not ready within ${options.readyTimeoutMs ?? 30_000} ms:\n${output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { name, pid: child.pid ?? -1, port, url, output, stop, kill };
}
