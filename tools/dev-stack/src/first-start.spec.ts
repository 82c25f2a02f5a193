// npm start on a fresh machine: the shop answers while Jaeger and VictoriaMetrics are still
// being built, and they join it once built, without a restart. The tools folder is a scratch one holding
// only what `ensure-tools --servers` leaves on a fresh machine (the database launcher, nats-server and
// the mail catcher, linked to the real ones); the build is a stand-in that does not end until the test
// says so, as Go compiling Jaeger for minutes does not. Lightened to what the checks need: products
// alone of the services (the gateway and the four front-ends as always).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { toolPaths } from '@shop/infra';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningStack, startStack } from './stack.js';
import { BackgroundBuild } from './stack/observability.js';

const scratch = mkdtempSync(join(tmpdir(), 'first-start-'));
const real = toolPaths();
const toolsDir = join(scratch, 'tools');
const link = (dir: string) => symlinkSync(dir, join(toolsDir, basename(dir)));
const buildDone = join(scratch, 'build-done');
const builderPid = join(scratch, 'builder.pid');
const previousToolsDir = process.env['SHOP_TOOLS_DIR'];

/** A node script as a builder: `node -e <script>`. */
const nodeScript = (script: string) => ({ command: process.execPath, args: ['-e', script] });

/** Whether a process is still there. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** SIGKILL to a process's group, if it is still there (a failed test leaves nothing running). */
function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // Gone already.
  }
}

async function eventually<T>(probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe().catch(() => undefined);
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`not seen within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

afterAll(() => {
  if (previousToolsDir === undefined) delete process.env['SHOP_TOOLS_DIR'];
  else process.env['SHOP_TOOLS_DIR'] = previousToolsDir;
  rmSync(scratch, { recursive: true, force: true });
});

describe('the first npm start', () => {
  let stack: RunningStack;
  const lines: string[] = [];

  beforeAll(async () => {
    mkdirSync(toolsDir);
    link(real.mongoDir);
    link(dirname(real.ownNatsServer));
    link(dirname(real.mailpit));
    process.env['SHOP_TOOLS_DIR'] = toolsDir;
    const fs = "require('node:fs')";
    stack = await startStack({
      ports: 'free',
      only: ['products'],
      observability: true,
      observabilityBuild: 'background',
      // Ends only once the test writes build-done (if startStack waited for it, this would time out).
      observabilityBuilder: nodeScript(
        `${fs}.writeFileSync(${JSON.stringify(builderPid)}, String(process.pid));` +
          `setInterval(() => ${fs}.existsSync(${JSON.stringify(buildDone)}) && process.exit(0), 100);`,
      ),
      scrapeIntervalSeconds: 1,
      // Products alone: its demo seed would wait SEED_MEDIA_WAIT_MS (a minute) for a media service
      // this stack does not start before it listens, which on a busy machine outlasted the readiness
      // limit. The seed's waiting has its own tests in products.
      serviceEnv: { SEED_DEMO_DATA: 'false' },
      // The services' spans leave every 0.2 s: refused many times while nothing listens.
      telemetryEnv: { OTEL_BSP_SCHEDULE_DELAY: '200' },
      log: (line) => lines.push(line),
    });
  }, 240_000);

  afterAll(async () => {
    if (stack) return stack.stop();
    // startStack never answered (it waited for the build): at least the stand-in build goes (and its
    // keeper with it).
    if (!existsSync(builderPid)) return;
    try {
      process.kill(Number(readFileSync(builderPid, 'utf8')), 'SIGKILL');
    } catch (error) {
      // Gone already: a stack that failed to start stops what it started.
      if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
    }
  }, 60_000);

  it('serves the shop while Jaeger and VictoriaMetrics are still being built', async () => {
    expect(stack.observability?.building).toBe(true);
    expect(alive(Number(readFileSync(builderPid, 'utf8')))).toBe(true);
    expect(lines).toContain('traces and metrics: building (first run only)…; the shop starts meanwhile');

    const page = await fetch(`${stack.url}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    const products = await fetch(`${stack.url}/api/products`);
    expect(products.status).toBe(200);
    expect(await products.json()).toBeTypeOf('object');

    // Spans sent to an OTLP address where nothing listens yet: dropped quietly, the service unharmed.
    const pid = stack.pidOf('products');
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect((await fetch(`${stack.url}/api/products`)).status).toBe(200);
    expect(stack.pidOf('products')).toBe(pid);
    const log = readFileSync(join(stack.logDir, 'products.log'), 'utf8');
    expect(log).not.toMatch(/ECONNREFUSED|OTLP|export/i);
  }, 60_000);

  it('attaches them once built: spans reach Jaeger and VictoriaMetrics scrapes, no part restarted', async () => {
    const products = stack.pidOf('products');
    // What the real build leaves in the tools folder, then its end.
    link(dirname(real.jaeger));
    link(dirname(real.victoriaMetrics));
    mkdirSync(buildDone);
    await stack.observability!.running;
    expect(stack.observability!.building).toBe(false);
    expect(lines.some((line) => line.startsWith('jaeger '))).toBe(true);
    expect(lines.some((line) => line.startsWith('metrics '))).toBe(true);

    const traceId = randomBytes(16).toString('hex');
    const traceparent = `00-${traceId}-${randomBytes(8).toString('hex')}-01`;
    expect((await fetch(`${stack.url}/api/products`, { headers: { traceparent } })).status).toBe(200);
    const services = await eventually(async () => {
      const response = await fetch(`${stack.observability!.jaegerUrl}/api/traces/${traceId}`);
      if (!response.ok) return undefined;
      const body = (await response.json()) as {
        data: { processes: Record<string, { serviceName: string }> }[];
      };
      const names = new Set(Object.values(body.data[0]?.processes ?? {}).map((p) => p.serviceName));
      return names.has('products') && names.has('gateway') ? names : undefined;
    });
    expect([...services].sort()).toEqual(['gateway', 'products']);

    const up = await eventually(async () => {
      const query = encodeURIComponent('up{job="products"}');
      const response = await fetch(`${stack.observability!.victoriaMetricsUrl}/api/v1/query?query=${query}`);
      const body = (await response.json()) as { data: { result: { value: [number, string] }[] } };
      return body.data.result[0]?.value[1];
    });
    expect(up).toBe('1');
    expect(stack.pidOf('products')).toBe(products);
  }, 120_000);
});

describe('the background build', () => {
  /** A stand-in for the installer: a process running a build under it that never ends. */
  const neverEnding = (pids: string) =>
    nodeScript(
      `const child = require('node:child_process').spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'inherit' });` +
        `require('node:fs').writeFileSync(${JSON.stringify(pids)}, process.pid + ' ' + child.pid);` +
        `console.log('ensure-tools: jaeger: building, ~12 min');`,
    );
  const pidsIn = async (file: string) =>
    (await eventually(async () => (existsSync(file) ? readFileSync(file, 'utf8') : undefined)))
      .split(' ')
      .map(Number) as [number, number];
  const gone = (pid: number) => eventually(async () => (alive(pid) ? undefined : true), 5_000);

  it('is stopped with everything it started', async () => {
    const pids = join(scratch, 'stopped.pids');
    const build = new BackgroundBuild(neverEnding(pids), join(scratch, 'build.log'), () => undefined);
    try {
      const [builder, compiler] = await pidsIn(pids);
      expect(alive(builder) && alive(compiler)).toBe(true);
      await build.stop();
      await expect(build.done).rejects.toThrow(/exit code 143/);
      await gone(builder);
      await gone(compiler);
      expect(readFileSync(build.logFile, 'utf8')).toContain('jaeger: building, ~12 min');
    } finally {
      killGroup(build.pid);
    }
  }, 30_000);

  it('ends when the process that started it is gone (the pipe to its keeper closes)', async () => {
    const pids = join(scratch, 'orphaned.pids');
    const { command, args } = neverEnding(pids);
    const keeper = spawn(
      process.execPath,
      [join(import.meta.dirname, 'stack', 'build-keeper.cjs'), command, ...args],
      { detached: true, stdio: ['pipe', 'ignore', 'ignore'] },
    );
    try {
      const [builder, compiler] = await pidsIn(pids);
      keeper.stdin.end(); // what the stack's process dying does to the pipe
      await gone(builder);
      await gone(compiler);
      await gone(keeper.pid!);
    } finally {
      killGroup(keeper.pid!);
    }
  }, 30_000);
});
