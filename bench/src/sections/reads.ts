// docs/performance.md, "Catalogue reads": GET /api/products (the home grid's request) five ways in one run:
// from a bare Node HTTP server answering the very same bytes (this machine's ceiling), from the products
// service directly, and through three hops in front of it: nginx (what Kong runs on), the plainest Node
// proxy (the floor of any gateway written in Node) and the local gateway. The gateway and the Node proxy
// run in the bench process (as npm start runs the gateway), so the load generator runs in a worker thread
// of its own, the same for every target. The targets are measured twice in mirrored order (A B C D E E D C
// B A) and averaged, so a burst of load from elsewhere on the machine weighs on all of them alike.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';
import { type BenchContext, type BenchSection, type Figure, figure } from '../lib/figure.js';
import { profiled } from '../lib/cpu-profile.js';
import { mainThreadCpuMs, statCpuMs } from '../lib/part-clocks.js';
import { type ReferenceHop, startNginxHop, startNodeHop } from '../lib/reference-hops.js';
import { spreadOf } from '../lib/regressions.js';

const PATH = '/api/products';
/** Each load phase starts with this much untimed load, so the JIT, the pools and the cache are warm. */
const WARM_UP_S = 2;

interface Run {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** CPU time per answered request, µs, of the target's own process: the bare server or the hop (none direct). */
  hopUs: number;
  /** The same for the products service's process. */
  serviceUs: number;
}

async function load(
  url: string,
  connections: number,
  durationS: number,
  servicePid: number,
  hopCpuMs: () => number,
): Promise<Run> {
  const options = { url, connections, duration: durationS, workers: 1 };
  await autocannon({ ...options, duration: WARM_UP_S });
  const serviceStat = `/proc/${servicePid}/stat`;
  const before = { hop: hopCpuMs(), service: statCpuMs(serviceStat) };
  const result = await autocannon(options);
  if (result.errors > 0 || result.non2xx > 0 || result.timeouts > 0) {
    throw new Error(
      `${url}: ${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx answers; a failed read is not a fast one`,
    );
  }
  const perRequestUs = (ms: number) => (ms * 1000) / Math.max(1, result.requests.total);
  return {
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    hopUs: perRequestUs(hopCpuMs() - before.hop),
    serviceUs: perRequestUs(statCpuMs(serviceStat) - before.service),
  };
}

const mean = (runs: Run[]) => runs.reduce((sum, run) => sum + run.requestsPerSecond, 0) / runs.length;
const describe = (runs: Run[]) =>
  runs
    .map((run) => `${Math.round(run.requestsPerSecond)} req/s (p50 ${run.p50Ms} ms, p99 ${run.p99Ms} ms)`)
    .join(', ');
const meanUs = (runs: Run[], part: 'hopUs' | 'serviceUs') =>
  Math.round(runs.reduce((sum, run) => sum + run[part], 0) / runs.length);

export const readsSection: BenchSection = {
  name: 'reads',
  async run({ stack, connections, durationS, log }: BenchContext): Promise<Figure[]> {
    const servicePid = stack.pidOf('products');
    if (servicePid === undefined) throw new Error('the products service is not running');
    const direct = `http://127.0.0.1:${stack.ports.products}${PATH}`;
    const first = await fetch(direct);
    const body = Buffer.from(await first.arrayBuffer());
    const total = first.headers.get('x-total-count') ?? '0';

    // The same bytes and content headers, with nothing computed per request.
    const bare = createServer((_req, res) => {
      res.writeHead(200, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': body.length,
        'x-total-count': total,
      });
      res.end(body);
    });
    await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
    const hops: ReferenceHop[] = [];
    try {
      const nginx = await startNginxHop(stack.ports.products, PATH);
      hops.push(nginx);
      const node = await startNodeHop(stack.ports.products, mainThreadCpuMs);
      hops.push(node);
      const targets: Record<Target, { url: string; cpuMs: () => number }> = {
        bare: { url: `http://127.0.0.1:${(bare.address() as AddressInfo).port}`, cpuMs: mainThreadCpuMs },
        direct: { url: `http://127.0.0.1:${stack.ports.products}`, cpuMs: () => 0 },
        nginx,
        node,
        gateway: { url: stack.url, cpuMs: mainThreadCpuMs },
      };
      const runs: Record<Target, Run[]> = { bare: [], direct: [], nginx: [], node: [], gateway: [] };
      let pass = 0;
      for (const target of [...TARGETS, ...[...TARGETS].reverse()]) {
        const { url, cpuMs } = targets[target];
        const measure = () => load(`${url}${PATH}`, connections, durationS, servicePid, cpuMs);
        // The gateway's phases, profiled when BENCH_CPU_PROFILE asks (docs/performance.md, "Catalogue reads").
        const run = await (target === 'gateway' ? profiled(`reads-gateway-${++pass}`, measure) : measure());
        log(
          `  ${target.padEnd(8)} ${Math.round(run.requestsPerSecond)} req/s, p50 ${run.p50Ms} ms, p99 ${run.p99Ms} ms, ` +
            `CPU per request: ${target === 'direct' ? '' : `${target} ${Math.round(run.hopUs)} µs, `}products ${Math.round(run.serviceUs)} µs`,
        );
        runs[target].push(run);
      }
      return readsFigures(runs, { bytes: body.length, connections, durationS });
    } finally {
      await Promise.all(hops.map((hop) => hop.close()));
      bare.close();
    }
  },
};

type Target = 'bare' | 'direct' | 'nginx' | 'node' | 'gateway';
const TARGETS: readonly Target[] = ['bare', 'direct', 'nginx', 'node', 'gateway'];
const NAMES: Record<Target, string> = {
  bare: 'from a bare Node server, same bytes',
  direct: 'from the products service directly',
  nginx: 'through nginx in front of the same service (a worker per core, as Kong)',
  node: 'through the plainest Node proxy in front of the same service (node:http both ways, nothing else)',
  gateway: 'through the gateway',
};

function readsFigures(
  runs: Record<Target, Run[]>,
  settings: { bytes: number; connections: number; durationS: number },
): Figure[] {
  const { bytes, connections, durationS } = settings;
  const measurement = (target: Target) => ({
    what: `GET ${PATH} ${NAMES[target]}, ${connections} connections`,
    value: mean(runs[target]),
    unit: 'req/s',
  });
  const hopUs = (target: Target) => meanUs(runs[target], 'hopUs');
  const notes =
    `response ${bytes} bytes (identity), ${durationS} s per phase after ${WARM_UP_S} s warm-up, each target twice ` +
    `(A B C D E E D C B A); load generator in a worker thread; gateway rate limits raised for the run. ` +
    TARGETS.map((target) => `${target}: ${describe(runs[target])}`).join('; ') +
    `. CPU per request (Linux clocks, both cores shared by every part and the load generator): ` +
    `bare server ${hopUs('bare')} µs; products service ${meanUs(runs.direct, 'serviceUs')} µs direct, ` +
    `${meanUs(runs.nginx, 'serviceUs')} µs behind nginx, ${meanUs(runs.node, 'serviceUs')} µs behind the Node proxy, ` +
    `${meanUs(runs.gateway, 'serviceUs')} µs behind the gateway; the hops: nginx ${hopUs('nginx')} µs (master and workers), ` +
    `Node proxy ${hopUs('node')} µs, gateway ${hopUs('gateway')} µs.`;
  // CPU per request by part, for the regression guard; each target ran twice, which measures the noise.
  const parts: Record<string, [Run[], 'hopUs' | 'serviceUs']> = {
    gateway: [runs.gateway, 'hopUs'],
    'products behind the gateway': [runs.gateway, 'serviceUs'],
    'products direct': [runs.direct, 'serviceUs'],
    'bare server': [runs.bare, 'hopUs'],
    nginx: [runs.nginx, 'hopUs'],
    'node proxy': [runs.node, 'hopUs'],
  };
  const cpuUs = Object.fromEntries(
    Object.entries(parts).map(([part, [passes, clock]]) => [part, meanUs(passes, clock)]),
  );
  const cpuNoise = Object.fromEntries(
    Object.entries(parts).map(([part, [passes, clock]]) => [
      part,
      Math.round(spreadOf(passes[0]![clock], passes[1]![clock]) * 1000) / 1000,
    ]),
  );
  const compare = (id: string, measured: Target, reference: Target, target: number, reportOnly?: boolean) =>
    figure({
      id: `reads.${id}`,
      section: 'reads',
      measured: measurement(measured),
      reference: measurement(reference),
      better: 'higher',
      target,
      reportOnly,
    });
  return [
    { ...compare('gateway-vs-bare', 'gateway', 'bare', 0.35), notes, cpuUs, cpuNoise },
    compare('gateway-vs-direct', 'gateway', 'direct', 0.85),
    // The goals for a cached read (docs/performance.md, "The hot paths' goals").
    compare('gateway-vs-nginx', 'gateway', 'nginx', 0.9),
    compare('direct-vs-bare', 'direct', 'bare', 0.5),
    // Where the gateway's gap to nginx lies: the floor of any Node hop, and what ours adds above it.
    compare('node-proxy-vs-nginx', 'node', 'nginx', 0, true),
    compare('gateway-vs-node-proxy', 'gateway', 'node', 0, true),
  ];
}
