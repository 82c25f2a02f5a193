// docs/performance.md, "Catalogue reads": GET /api/products (the home grid's request) three ways in one run:
// from a bare Node HTTP server answering the very same bytes (this machine's ceiling), from the products
// service directly, and through the local gateway. The gateway runs in the bench process (as npm start runs
// it), so the load generator runs in a worker thread of its own, the same for all three targets. The targets
// are measured twice in mirrored order (A B C C B A) and averaged, so a burst of load from elsewhere on the
// machine weighs on all of them alike.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';
import { type BenchContext, type BenchSection, type Figure, figure } from '../lib/figure.js';
import { mainThreadCpuMs, statCpuMs } from '../lib/part-clocks.js';
import { spreadOf } from '../lib/regressions.js';

const PATH = '/api/products';
/** Each load phase starts with this much untimed load, so the JIT, the pools and the cache are warm. */
const WARM_UP_S = 2;

interface Run {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** CPU time per answered request, µs: this process's main thread (the bare server or the gateway). */
  mainThreadUs: number;
  /** The same for the products service's process. */
  serviceUs: number;
}

async function load(url: string, connections: number, durationS: number, servicePid: number): Promise<Run> {
  const options = { url, connections, duration: durationS, workers: 1 };
  await autocannon({ ...options, duration: WARM_UP_S });
  const serviceStat = `/proc/${servicePid}/stat`;
  const before = { main: mainThreadCpuMs(), service: statCpuMs(serviceStat) };
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
    mainThreadUs: perRequestUs(mainThreadCpuMs() - before.main),
    serviceUs: perRequestUs(statCpuMs(serviceStat) - before.service),
  };
}

const mean = (runs: Run[]) => runs.reduce((sum, run) => sum + run.requestsPerSecond, 0) / runs.length;
const describe = (runs: Run[]) =>
  runs
    .map((run) => `${Math.round(run.requestsPerSecond)} req/s (p50 ${run.p50Ms} ms, p99 ${run.p99Ms} ms)`)
    .join(', ');
const meanUs = (runs: Run[], part: 'mainThreadUs' | 'serviceUs') =>
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
    const targets = {
      bare: `http://127.0.0.1:${(bare.address() as AddressInfo).port}${PATH}`,
      direct,
      gateway: `${stack.url}${PATH}`,
    };
    const runs: Record<keyof typeof targets, Run[]> = { bare: [], direct: [], gateway: [] };
    try {
      const order = ['bare', 'direct', 'gateway', 'gateway', 'direct', 'bare'] as const;
      for (const target of order) {
        const run = await load(targets[target], connections, durationS, servicePid);
        log(
          `  ${target.padEnd(8)} ${Math.round(run.requestsPerSecond)} req/s, p50 ${run.p50Ms} ms, p99 ${run.p99Ms} ms, ` +
            `CPU per request: main thread ${Math.round(run.mainThreadUs)} µs, products ${Math.round(run.serviceUs)} µs`,
        );
        runs[target].push(run);
      }
    } finally {
      bare.close();
    }

    const what = (target: string) => `GET ${PATH} ${target}, ${connections} connections`;
    const notes =
      `response ${body.length} bytes (identity), ${durationS} s per phase after ${WARM_UP_S} s warm-up, each target twice ` +
      `(A B C C B A); load generator in a worker thread; gateway rate limits raised for the run. ` +
      `bare: ${describe(runs.bare)}; direct: ${describe(runs.direct)}; gateway: ${describe(runs.gateway)}. ` +
      `CPU per request (Linux thread clocks, both cores shared by all three parts and the load generator): ` +
      `bare server ${meanUs(runs.bare, 'mainThreadUs')} µs; products service ${meanUs(runs.direct, 'serviceUs')} µs ` +
      `direct, ${meanUs(runs.gateway, 'serviceUs')} µs behind the gateway; gateway ${meanUs(runs.gateway, 'mainThreadUs')} µs.`;
    const gateway = { what: what('through the gateway'), value: mean(runs.gateway), unit: 'req/s' };
    // CPU per request by part, for the regression guard; each target ran twice, which measures the noise.
    const parts: Record<string, [Run[], 'mainThreadUs' | 'serviceUs']> = {
      gateway: [runs.gateway, 'mainThreadUs'],
      'products behind the gateway': [runs.gateway, 'serviceUs'],
      'products direct': [runs.direct, 'serviceUs'],
      'bare server': [runs.bare, 'mainThreadUs'],
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
    return [
      figure({
        id: 'reads.gateway-vs-bare',
        section: 'reads',
        measured: gateway,
        reference: {
          what: what('from a bare Node server, same bytes'),
          value: mean(runs.bare),
          unit: 'req/s',
        },
        better: 'higher',
        target: 0.35,
        notes,
        cpuUs,
        cpuNoise,
      }),
      figure({
        id: 'reads.gateway-vs-direct',
        section: 'reads',
        measured: gateway,
        reference: {
          what: what('from the products service directly'),
          value: mean(runs.direct),
          unit: 'req/s',
        },
        better: 'higher',
        target: 0.85,
      }),
    ];
  },
};
