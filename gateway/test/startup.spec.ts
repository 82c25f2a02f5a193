import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { GatewayConfigError, GatewayEnvError, startGateway } from '../src/index';
import { ACCESS_LOG_FLUSH_MS, createGatewayLogger } from '../src/logging/gateway-logger';
import { memoryLogger, writeKongFile } from './support/gateway.fixture';
import { startUpstream, unusedPort } from './support/upstream.server';

const GATEWAY_DIR = resolve(__dirname, '..');
const MINIMAL =
  '_format_version: "3.0"\nservices:\n  - name: api\n    url: http://api:3001\n    routes:\n      - name: api\n        paths: [/api]\n';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function kongFile(yaml: string): string {
  const file = writeKongFile(yaml);
  cleanups.push(file.remove);
  return file.path;
}

const jsonLines = (text: string) =>
  text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
const accessLines = (text: string) => jsonLines(text).filter((line) => line['msg'] === 'request');
const answered = async (url: string, count: number) => {
  for (let n = 0; n < count; n += 1) expect((await fetch(`${url}/api/item-${n}`)).status).toBe(200);
};

async function refusal(yaml: string): Promise<string> {
  const start = startGateway({
    configPath: kongFile(yaml),
    port: 0,
    host: '127.0.0.1',
    logger: memoryLogger().logger,
  });
  await expect(start).rejects.toBeInstanceOf(GatewayConfigError);
  return start.then(
    () => '',
    (error: Error) => error.message,
  );
}

describe('start-up refusals', () => {
  it('refuses a plugin it does not implement', async () => {
    expect(await refusal(`${MINIMAL}plugins:\n  - name: jwt\n`)).toMatch(
      /plugins\[0\] \(jwt\)\.name: plugin "jwt" is not implemented/,
    );
  });

  it('refuses an entity it does not implement', async () => {
    expect(await refusal(`${MINIMAL}consumers:\n  - username: ann\n`)).toContain(
      'top-level entity "consumers" is not implemented',
    );
  });

  it('refuses the redis rate-limiting policy', async () => {
    expect(
      await refusal(
        `${MINIMAL}plugins:\n  - name: rate-limiting\n    config: { minute: 5, limit_by: ip, policy: redis }\n`,
      ),
    ).toContain('policy "redis" is not implemented');
  });

  it('refuses an upstream override for a host the file does not use', async () => {
    await expect(
      startGateway({
        configPath: kongFile(MINIMAL),
        port: 0,
        upstreams: { apj: '127.0.0.1:1' },
        logger: memoryLogger().logger,
      }),
    ).rejects.toThrow(GatewayEnvError);
  });

  it('refuses a missing file with its path', async () => {
    await expect(
      startGateway({ configPath: '/nonexistent/kong.yml', port: 0, logger: memoryLogger().logger }),
    ).rejects.toThrow(/\/nonexistent\/kong\.yml[\s\S]*cannot read the file/);
  });
});

describe('command line (src/main.ts)', () => {
  function runMain(env: Record<string, string>): {
    exit: Promise<number | null>;
    stdout: () => string;
    stderr: () => string;
    kill(signal?: NodeJS.Signals): void;
  } {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: GATEWAY_DIR,
      env: { ...process.env, GATEWAY_HOST: '127.0.0.1', GATEWAY_PORT: '0', GATEWAY_STATUS_PORT: '0', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exit = once(child, 'exit').then(([code]) => code as number | null);
    cleanups.push(() => child.kill('SIGKILL'));
    return {
      exit,
      stdout: () => stdout,
      stderr: () => stderr,
      kill: (signal: NodeJS.Signals = 'SIGTERM') => child.kill(signal),
    };
  }

  /** The gateway of src/main.ts in front of an echo service, once it listens: its URL and its run. */
  async function mainInFrontOfEcho() {
    const echo = await startUpstream('api');
    cleanups.push(() => void echo.close());
    const run = runMain({ GATEWAY_CONFIG: kongFile(MINIMAL), GATEWAY_UPSTREAMS: `api=${echo.address}` });
    const deadline = Date.now() + 15_000;
    while (!run.stdout().includes('gateway listening') && Date.now() < deadline) {
      await new Promise((resolveWait) => setTimeout(resolveWait, 50));
    }
    const listening = jsonLines(run.stdout()).find((line) => line['msg'] === 'gateway listening');
    expect(listening, run.stderr()).toBeDefined();
    return { url: String(listening!['url']), run };
  }

  it('writes each access line within its flush interval, so a kill -9 after that loses none', async () => {
    const { url, run } = await mainInFrontOfEcho();
    await answered(url, 10);
    const answeredAt = Date.now();
    // Ten lines (about 2 KB) are under the batch size: only the timed flush writes them.
    while (accessLines(run.stdout()).length < 10 && Date.now() - answeredAt < ACCESS_LOG_FLUSH_MS + 2_000) {
      await new Promise((resolveWait) => setTimeout(resolveWait, 50));
    }
    run.kill('SIGKILL');
    await run.exit;
    const paths = accessLines(run.stdout()).map((line) => line['path']);
    expect(paths).toEqual(Array.from({ length: 10 }, (_, n) => `/api/item-${n}`));
  });

  it('exits 1 with a clear message when the file uses an unknown plugin', async () => {
    const run = runMain({ GATEWAY_CONFIG: kongFile(`${MINIMAL}plugins:\n  - name: key-auth\n`) });
    expect(await run.exit).toBe(1);
    expect(run.stderr()).toContain('gateway: refused to start');
    expect(run.stderr()).toContain('plugin "key-auth" is not implemented by the local gateway');
  });

  it('exits 1 with a clear message on a bad environment value', async () => {
    const run = runMain({ GATEWAY_PORT: 'eighty', GATEWAY_UPSTREAMS: 'products=nowhere' });
    expect(await run.exit).toBe(1);
    expect(run.stderr()).toContain('GATEWAY_PORT must be a port number');
    expect(run.stderr()).toContain(
      'GATEWAY_UPSTREAMS entry "products=nowhere" must look like name=host:port',
    );
    const second = runMain({ GATEWAY_RATE_LIMIT_FACTOR: '0' });
    expect(await second.exit).toBe(1);
    expect(second.stderr()).toContain('GATEWAY_RATE_LIMIT_FACTOR must be a positive number');
  });

  it('serves the default kong.yml and its metrics, warns about a raised rate limit, and stops on SIGTERM', async () => {
    const statusPort = await unusedPort();
    const run = runMain({
      GATEWAY_RATE_LIMIT_FACTOR: '10',
      GATEWAY_UPSTREAMS: 'shell=127.0.0.1:9',
      GATEWAY_STATUS_PORT: String(statusPort),
    });
    const deadline = Date.now() + 15_000;
    while (!run.stdout().includes('gateway listening') && Date.now() < deadline) {
      await new Promise((resolveWait) => setTimeout(resolveWait, 50));
    }
    const lines = run
      .stdout()
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toContainEqual(expect.objectContaining({ level: 40, rateLimitFactor: 10 }));
    const listening = lines.find((line) => line.msg === 'gateway listening');
    expect(listening).toMatchObject({ config: resolve(GATEWAY_DIR, 'kong.yml') });
    // Nothing listens on the shell's address. The front-ends' upstreams have no health checks in
    // kong.yml (a static server restarted on its port must be reached again at once), so every try
    // is refused and the answer is Kong's 502.
    const res = await fetch(`${String(listening?.url)}/api/nothing-here`);
    expect(res.status).toBe(502);
    expect(await res.json()).toEqual({
      message: 'An invalid response was received from the upstream server',
    });
    const metrics = await fetch(`http://127.0.0.1:${statusPort}/metrics`);
    expect(await metrics.text()).toContain(
      'kong_http_requests_total{service="shell",route="shell",code="502",source="kong"',
    );
    run.kill();
    expect(await run.exit).toBe(0);
  });
});

describe('access log', () => {
  it('writes the access lines still gathered when it is closed', async () => {
    const echo = await startUpstream('api');
    cleanups.push(() => void echo.close());
    const dir = mkdtempSync(join(tmpdir(), 'gateway-log-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const log = join(dir, 'gateway.log');
    const gateway = await startGateway({
      configPath: kongFile(MINIMAL),
      port: 0,
      host: '127.0.0.1',
      upstreams: { api: echo.address },
      logger: createGatewayLogger('info', log),
    });
    await answered(gateway.url, 5);
    // In the process that goes on (the local stack's gateway), not at its exit.
    await gateway.close();
    expect(accessLines(readFileSync(log, 'utf8'))).toHaveLength(5);
  });
});
