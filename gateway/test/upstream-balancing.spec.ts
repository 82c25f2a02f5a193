// Kong upstreams in the local gateway: round-robin over targets (and over a target's local replicas),
// retries on the next target, passive health checks taking a failing target out, active ones bringing
// it back, and the service's `retries`, all against real servers on free ports.
import { createServer, type Server } from 'node:http';
import { type AddressInfo, createServer as createNetServer, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { startGateway } from '../src/index';
import { memoryLogger, startTestGateway, type TestGateway, writeKongFile } from './support/gateway.fixture';
import { rawRequest } from './support/raw-request';
import { startUpstream, type TestUpstream, unusedPort } from './support/upstream.server';

const PASSIVE = `
    healthchecks:
      passive:
        unhealthy: { tcp_failures: 2 }
        healthy: { successes: 1 }`;

/** A kong.yml with one service `api` on the upstream `api`, whose targets are a:1 and b:1. */
const kongYml = (options: { retries?: number; checks?: string } = {}): string => `
_format_version: "3.0"
services:
  - name: api
    url: http://api:3001
    ${options.retries === undefined ? '' : `retries: ${options.retries}`}
    routes: [{ name: api, paths: [/], strip_path: false }]
upstreams:
  - name: api
    targets: [{ target: "a:1" }, { target: "b:1" }]${options.checks ?? ''}
`;

const stop: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of stop.splice(0).reverse()) await close();
});

async function upstream(name: string): Promise<TestUpstream> {
  const server = await startUpstream(name);
  stop.push(() => server.close());
  return server;
}

async function gatewayFor(yaml: string, upstreams: Record<string, string | string[]>): Promise<TestGateway> {
  const gateway = await startTestGateway({ yaml }, upstreams);
  stop.push(() => gateway.close());
  return gateway;
}

/** How many targets the request to `path` was sent to, from its access line (written once the answer is out). */
async function triesOf(gateway: TestGateway, path: string): Promise<unknown> {
  const line = () => gateway.lines.find((each) => each.msg === 'request' && each.path === path);
  await expect.poll(line).toBeDefined();
  return line()!.tries;
}

/** Who answered each of `count` GETs, in order. */
async function answerers(gateway: TestGateway, count: number, prefix = '/r'): Promise<string[]> {
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const res = await rawRequest(gateway.url, `${prefix}${i}`);
    expect(res.status, res.body).toBe(200);
    out.push(res.json<{ upstream: string }>().upstream);
  }
  return out;
}

describe('upstreams', () => {
  it('balances round-robin across two targets, and across the replicas a host is listed with', async () => {
    const [a, b, b2] = [await upstream('a'), await upstream('b'), await upstream('b2')];
    const twoTargets = await gatewayFor(kongYml(), { a: a.address, b: b.address });
    expect(await answerers(twoTargets, 4)).toEqual(['a', 'b', 'a', 'b']);
    // The service sees the target's name as Host, whatever address it was reached at.
    expect(b.seen[0]!.headers.host).toBe('b:1');

    // b listed twice: two replicas, each a target of its own with the target's weight.
    const replicas = await gatewayFor(kongYml(), { a: a.address, b: [b.address, b2.address] });
    const seen = await answerers(replicas, 6);
    expect(seen.filter((name) => name === 'a')).toHaveLength(2);
    expect(seen.filter((name) => name === 'b')).toHaveLength(2);
    expect(seen.filter((name) => name === 'b2')).toHaveLength(2);
    expect(b2.seen[0]!.headers.host).toBe('b:1');
  });

  it('retries a GET on the other target when one refuses, and takes the refusing one out after 2 failures', async () => {
    const b = await upstream('b');
    const gateway = await gatewayFor(kongYml({ checks: PASSIVE }), {
      a: `127.0.0.1:${await unusedPort()}`,
      b: b.address,
    });
    expect(await answerers(gateway, 6)).toEqual(['b', 'b', 'b', 'b', 'b', 'b']);
    // The retry takes b's turn of the round, so the next request starts with a again (Kong's wheel
    // pointer moves on every pick): a failed on the first two requests, each retried on b; then it was out.
    expect(await Promise.all([0, 1, 2, 3, 4, 5].map((i) => triesOf(gateway, `/r${i}`)))).toEqual([
      2, 2, 1, 1, 1, 1,
    ]);
    expect(gateway.lines).toContainEqual(
      expect.objectContaining({
        msg: 'upstream target unhealthy',
        upstream: 'api',
        target: 'a:1',
        reason: 'tcp_failure',
      }),
    );
  });

  it('does not retry a POST the target already received, but does one it never received', async () => {
    const sockets: Socket[] = [];
    // A target that reads the request and drops the connection without answering.
    const dropping = createServer((req) => req.socket.destroy());
    dropping.on('connection', (socket) => sockets.push(socket));
    await listen(dropping);
    stop.push(() => close(dropping));
    const b = await upstream('b');
    let gateway = await gatewayFor(kongYml(), { a: `127.0.0.1:${port(dropping)}`, b: b.address });
    const sent = await rawRequest(gateway.url, '/order', { method: 'POST', body: '{"n":1}' });
    expect(sent.status).toBe(502);
    expect(sent.json()).toEqual({ message: 'An invalid response was received from the upstream server' });
    expect(b.seen).toHaveLength(0);
    expect(await triesOf(gateway, '/order')).toBe(1);

    // Refused before anything was sent: the next target gets the whole body.
    gateway = await gatewayFor(kongYml(), { a: `127.0.0.1:${await unusedPort()}`, b: b.address });
    const retried = await rawRequest(gateway.url, '/order', { method: 'POST', body: '{"n":2}' });
    expect(retried.status).toBe(200);
    expect(retried.json()).toMatchObject({ upstream: 'b', method: 'POST', bodyBytes: 7 });
    expect(await triesOf(gateway, '/order')).toBe(2);
  });

  it('does not retry an answer that does not parse (nginx retries errors and timeouts, not invalid headers)', async () => {
    const sockets = new Set<Socket>();
    const garbage = createNetServer((socket) => {
      sockets.add(socket);
      socket.on('data', () => socket.end('NOT HTTP AT ALL\r\n\r\n'));
    });
    await new Promise<void>((resolve) => garbage.listen(0, '127.0.0.1', resolve));
    stop.push(
      () =>
        new Promise<void>((resolve) => {
          garbage.close(() => resolve());
          for (const socket of sockets) socket.destroy();
        }),
    );
    const b = await upstream('b');
    const gateway = await gatewayFor(kongYml(), {
      a: `127.0.0.1:${(garbage.address() as AddressInfo).port}`,
      b: b.address,
    });
    const res = await rawRequest(gateway.url, '/page');
    expect(res.status).toBe(502);
    expect(await triesOf(gateway, '/page')).toBe(1);
    expect(b.seen).toHaveLength(0);
  });

  it('honours retries: 0, and answers 503 when no target is left', async () => {
    const b = await upstream('b');
    const checks = `
    healthchecks:
      passive:
        unhealthy: { tcp_failures: 1, http_failures: 1, http_statuses: [502] }`;
    const gateway = await gatewayFor(kongYml({ retries: 0, checks }), {
      a: `127.0.0.1:${await unusedPort()}`,
      b: b.address,
    });
    const first = await rawRequest(gateway.url, '/x');
    expect(first.status).toBe(502);
    expect(await triesOf(gateway, '/x')).toBe(1);
    await b.close();
    // b refuses now too, and the 502 it causes (the status Kong reports after the last try) counts.
    expect((await rawRequest(gateway.url, '/y')).status).toBe(502);
    const none = await rawRequest(gateway.url, '/z');
    expect(none.status).toBe(503);
    expect(none.json()).toEqual({ message: 'failure to get a peer from the ring-balancer' });
  });

  it("exports each target address's health as Kong's kong_upstream_target_health", async () => {
    const b = await upstream('b');
    const aPort = await unusedPort();
    const file = writeKongFile(
      `${kongYml({ checks: PASSIVE })}plugins:\n  - name: prometheus\n    config: { upstream_health_metrics: true }\n`,
    );
    const gateway = await startGateway({
      configPath: file.path,
      port: 0,
      host: '127.0.0.1',
      upstreams: { a: `127.0.0.1:${aPort}`, b: b.address },
      logger: memoryLogger().logger,
      statusPort: 0,
    });
    stop.push(async () => {
      await gateway.close();
      file.remove();
    });
    const health = async (): Promise<string[]> =>
      (await (await fetch(`${gateway.statusUrl}/metrics`)).text())
        .split('\n')
        .filter((line) => line.startsWith('kong_upstream_target_health{') && line.endsWith(' 1'));
    const series = (target: string, address: string, state: string): string =>
      `kong_upstream_target_health{upstream="api",target="${target}",address="${address}",state="${state}",subsystem="http"} 1`;
    expect(await health()).toEqual([
      series('a:1', `127.0.0.1:${aPort}`, 'healthy'),
      series('b:1', b.address, 'healthy'),
    ]);
    for (const path of ['/m1', '/m2']) expect((await rawRequest(gateway.url, path)).status).toBe(200);
    expect(await health()).toEqual([
      series('a:1', `127.0.0.1:${aPort}`, 'unhealthy'),
      series('b:1', b.address, 'healthy'),
    ]);
  });

  it('brings a target back when its active check passes again', async () => {
    const a = createServer((req, res) => res.end(JSON.stringify({ upstream: 'a', url: req.url })));
    await listen(a);
    const aPort = port(a);
    stop.push(() => close(a));
    const b = await upstream('b');
    const checks = `${PASSIVE}
      active:
        http_path: /health/ready
        healthy: { interval: 0, successes: 1 }
        unhealthy: { interval: 0.1 }`;
    const gateway = await gatewayFor(kongYml({ checks }), { a: `127.0.0.1:${aPort}`, b: b.address });
    expect(await answerers(gateway, 2, '/up')).toEqual(['a', 'b']);
    await close(a);
    expect(await answerers(gateway, 6, '/down')).toEqual(['b', 'b', 'b', 'b', 'b', 'b']);
    // Out: probes every 0.1 s fail while a is down, so it stays out.
    await sleep(300);
    expect(await answerers(gateway, 2, '/still')).toEqual(['b', 'b']);
    await listen(a, aPort);
    await waitFor(() => gateway.lines.some((line) => line.msg === 'upstream target healthy again'));
    expect((await answerers(gateway, 4, '/back')).sort()).toEqual(['a', 'a', 'b', 'b']);
  });

  it('lets a lone target that listens again back in at its next probe, not before', async () => {
    // The front-ends' static servers are one target each (kong.yml): a stopped one refused twice is out,
    // and a request before the next probe gets Kong's 503 although the server is up again. With a
    // probe every second, a Retry pressed at once after the restart met that 503.
    const PROBE_EVERY_S = 1;
    const lone = `
_format_version: "3.0"
services:
  - name: api
    url: http://api:3001
    routes: [{ name: api, paths: [/], strip_path: false }]
upstreams:
  - name: api
    targets: [{ target: "a:1" }]${PASSIVE}
      active:
        http_path: /health/ready
        healthy: { interval: 0, successes: 1 }
        unhealthy: { interval: ${PROBE_EVERY_S} }`;
    const probes: string[] = [];
    const a = createServer((req, res) => {
      if (req.url === '/health/ready') probes.push(req.url);
      res.end(JSON.stringify({ upstream: 'a', url: req.url }));
    });
    await listen(a);
    const aPort = port(a);
    stop.push(() => close(a));
    const gateway = await gatewayFor(lone, { a: `127.0.0.1:${aPort}` });
    expect(await answerers(gateway, 1, '/up')).toEqual(['a']);
    await close(a);
    expect((await rawRequest(gateway.url, '/down')).status).toBe(503);
    probes.length = 0;
    await listen(a, aPort);
    const atOnce = await rawRequest(gateway.url, '/at-once');
    expect(atOnce.status).toBe(503);
    expect(atOnce.json()).toEqual({ message: 'failure to get a peer from the ring-balancer' });
    // The order, not the latency: it is back after the first probe that reached it since it listens
    // again (successes: 1), not before one and not after more. The wait is only a hang guard: the next
    // probe is due within one interval, ten leave room for a busy runner.
    await waitFor(
      () => gateway.lines.some((line) => line.msg === 'upstream target healthy again'),
      10 * PROBE_EVERY_S * 1000,
    );
    expect(probes).toEqual(['/health/ready']);
    expect(await answerers(gateway, 1, '/back')).toEqual(['a']);
  });
});

function listen(server: Server, onPort = 0): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(onPort, '127.0.0.1', () => resolve());
  });
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) return resolve();
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

const port = (server: Server): number => (server.address() as AddressInfo).port;

async function waitFor(condition: () => boolean, ms = 5_000): Promise<void> {
  const until = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > until) throw new Error('timed out waiting');
    await sleep(20);
  }
}
