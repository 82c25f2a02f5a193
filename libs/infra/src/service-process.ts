import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from './free-port.js';
import { repoRoot } from './paths.cjs';
import { type ManagedProcess, startProcess } from './process.js';

export interface ServiceProcessOptions {
  /**
   * How long the service may take to answer `/health/ready` (default 120 s, as the stack waits): a hang
   * guard, not a speed bound. With one core taken by a CPU burner and Nx testing two projects at once, a
   * service started by orders' tests took more than 30 s.
   */
  readyTimeoutMs?: number;
  /** The service writes its output to this file itself; absent, its last lines are kept in memory. */
  logFile?: string;
}

/** A built service running as its own process, as in production: `node services/<name>/dist/main.js`. */
export type ServiceProcess = ManagedProcess & {
  port: number;
  /** `http://127.0.0.1:<port>`: the service itself, without the gateway. */
  url: string;
};

/** Where a service's build puts its entry point. */
export function serviceMain(name: string): string {
  return join(repoRoot(), 'services', name, 'dist', 'main.js');
}

/**
 * Starts the built service `services/<name>/dist/main.js` with exactly the given environment
 * (plus `PATH`, `HOST=127.0.0.1` and a free `PORT` unless given) and resolves once its
 * `/health/ready` answers 2xx. The stack runs every service this way; tests use it for a service they
 * need but must not import (services never import each other).
 */
export async function startServiceProcess(
  name: string,
  env: Record<string, string | undefined>,
  options: ServiceProcessOptions = {},
): Promise<ServiceProcess> {
  const main = serviceMain(name);
  if (!existsSync(main)) {
    throw new Error(`${main} is missing: build the service first (npm run build -w @shop/${name})`);
  }
  const port = env['PORT'] ? Number(env['PORT']) : await freePort();
  const url = `http://127.0.0.1:${port}`;
  const { ready: _, ...service } = await startProcess({
    name,
    command: process.execPath,
    args: [main],
    env: { PATH: process.env['PATH'], HOST: '127.0.0.1', ...env, PORT: String(port) },
    readyUrl: `${url}/health/ready`,
    timeoutMs: options.readyTimeoutMs ?? 120_000,
    logFile: options.logFile,
  });
  return { ...service, port, url };
}
