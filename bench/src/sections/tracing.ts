// What tracing costs per request. The same requests against four stacks of this run: the run's own,
// whose parts export nothing (no OTLP endpoint: the SDK only makes ids and propagates them), one whose
// services run with the SDK off, one started with Jaeger and VictoriaMetrics, every part exporting every
// span by OTLP/HTTP, and one keeping a trace in ten. Measured in mirrored rounds so drift on the machine
// weighs on each alike; the cost is read in CPU time per answered request over every process of the path
// (the gateway runs in this process's main thread), besides throughput and latency. Orders are compared
// at one fixed rate on every stack, with each part's idle CPU taken off (ORDER_RATE_SHARE below).
import autocannon from 'autocannon';
import { type RunningStack, SERVICES } from '@shop/dev-stack';
import { type BenchContext, type BenchSection, type Figure, figure } from '../lib/figure.js';
import { mainThreadCpuMs, processCpuMs, settle, spentSince } from '../lib/part-clocks.js';
import { orderRequests, setUp } from '../lib/order-traffic.js';

const WARM_UP_S = 2;
/**
 * Passes per stack, in mirrored rounds (a b, b a, ...); each figure is their median. Two passes of one
 * stack differ by up to a quarter on this machine, more than the goals' margins (≤ 1.05, ≤ 1.1): four
 * runs of four passes read 0.93–1.12 for the cached read (2026-12-03), while a CPU profile put what
 * telemetry costs products at about 9 µs of a path of about 390, and one trace in ten kept read 1.16 on
 * orders in a run where keeping every trace read 1.11. So eight.
 */
const PASSES = 8;
/** Buyers (and connections) of the order phase: enough to keep both cores busy, quick to set up. */
const BUYERS = 8;
/**
 * The orders' CPU is compared at one fixed rate on every stack: this share of the slowest stack's
 * saturated rate. Saturated, an exporting stack places about half the orders (Jaeger and VictoriaMetrics
 * share the two cores), and the group-commit queues then batch less, so its CPU per order would count
 * smaller batches besides the spans. At a fixed, lower rate the parts' idle work weighs more on each
 * order (at 12 orders/s here wallet, data and media, which do nothing for an order, came to 0.8–1.4 ms
 * per order each), so each paced pass starts once the stack is settled and has its idle CPU, measured
 * for IDLE_S just before, taken off.
 */
const ORDER_RATE_SHARE = 0.6;
const IDLE_S = 3;

/** The CPU clocks of the path: this process's main thread (the gateway) and every service. */
function clocks(stack: RunningStack): Record<string, number> {
  const found: Record<string, number> = { gateway: mainThreadCpuMs() };
  for (const name of SERVICES) {
    const pid = stack.pidOf(name);
    if (pid !== undefined) found[name] = processCpuMs(pid);
  }
  return found;
}

interface Run {
  rate: number;
  p50Ms: number;
  p99Ms: number;
  /** CPU µs per answered request, all parts of the path together. */
  cpuUs: number;
  /** The same, part by part (`gateway` is this process's main thread: the gateway and the load generator). */
  partsUs: Record<string, number>;
}

/**
 * CPU ms per second each part of the stack spends with no request coming: the polls, relays and
 * timers every process runs whatever the load (about 1 % of a core each here).
 */
async function idleRate(stack: RunningStack, seconds: number): Promise<Record<string, number>> {
  const before = clocks(stack);
  const startedAt = performance.now();
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  const spent = spentSince(before, clocks(stack));
  const elapsedS = (performance.now() - startedAt) / 1000;
  return Object.fromEntries(Object.entries(spent).map(([part, ms]) => [part, ms / elapsedS]));
}

/**
 * A load phase after a warm-up: its rate, latency and CPU per answered request by part. With `idle`
 * (each part's CPU ms per second at rest), the CPU is the phase's less what the parts spend at rest
 * over as long: what the requests themselves cost.
 */
async function load(
  stack: RunningStack,
  connections: number,
  durationS: number,
  options: Omit<autocannon.Options, 'duration' | 'connections'>,
  idle: Record<string, number> = {},
): Promise<Run> {
  const run = (duration: number) => autocannon({ ...options, duration, connections, pipelining: 1 });
  await run(WARM_UP_S);
  const before = clocks(stack);
  const startedAt = performance.now();
  const result = await run(durationS);
  const elapsedS = (performance.now() - startedAt) / 1000;
  if (result.errors > 0 || result.non2xx > 0 || result.timeouts > 0) {
    throw new Error(
      `${options.url}: ${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx answers`,
    );
  }
  const after = clocks(stack);
  const answered = Math.max(1, result['2xx']);
  const partsUs = Object.fromEntries(
    Object.keys(after).map((part) => {
      const spentMs = after[part]! - (before[part] ?? 0) - (idle[part] ?? 0) * elapsedS;
      return [part, (Math.max(0, spentMs) * 1000) / answered];
    }),
  );
  const spent = Object.values(partsUs).reduce((sum, us) => sum + us, 0) / 1000;
  return {
    rate: answered / result.duration,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    cpuUs: spent * 1000,
    partsUs,
  };
}

type Measure = Exclude<keyof Run, 'partsUs'>;
/** The median of some passes' values (the mean of the middle two of an even count). */
function medianOf(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
const median = (runs: Run[], key: Measure) => medianOf(runs.map((run) => run[key]));
const describe = (runs: Run[]) =>
  runs
    .map(
      (run) =>
        `${Math.round(run.rate)}/s, p50 ${run.p50Ms} ms, p99 ${run.p99Ms} ms, ${Math.round(run.cpuUs)} µs CPU`,
    )
    .join('; ');

type Mode = 'sdk-off' | 'off' | 'on' | 'sampled';
const MODE_NAMES: Record<Mode, string> = {
  'sdk-off': 'SDK off',
  off: 'no exporter',
  on: 'exporter on',
  sampled: '10 % kept',
};
/** The sampling docs/observability.md suggests for a busy cluster: a tenth of the traces, whole. */
const SAMPLED_ENV = { OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.1' };

/** The median CPU per request of each part that spent at least 5 µs, e.g. `gateway 400 µs, products 204 µs`. */
function partsOf(runs: Run[]): string {
  const parts = Object.keys(runs[0]!.partsUs);
  return parts
    .map((part) => ({ part, us: medianOf(runs.map((run) => run.partsUs[part] ?? 0)) }))
    .filter(({ us }) => us >= 5)
    .map(({ part, us }) => `${part} ${Math.round(us)} µs`)
    .join(', ');
}

/**
 * One workload on several stacks, `passes` times each, in mirrored rounds (a b c, c b a, ...) so drift
 * weighs on each alike. With `warmUp`, a round whose passes are not kept comes first: the first pass of
 * a workload on a stack costs more than the next ones (its code not yet compiled, the database's pages
 * not yet read), by up to a quarter here, and that first pass fell to the first stack of the first round.
 */
async function compare<M extends Mode>(
  log: (line: string) => void,
  stacks: Record<M, RunningStack>,
  workload: (stack: RunningStack) => Promise<Run>,
  { passes = PASSES, warmUp = true }: { passes?: number; warmUp?: boolean } = {},
): Promise<Record<M, Run[]>> {
  const modes = Object.keys(stacks) as M[];
  const runs = Object.fromEntries(modes.map((mode) => [mode, [] as Run[]])) as Record<M, Run[]>;
  if (warmUp) {
    for (const mode of modes) {
      const run = await workload(stacks[mode]);
      log(`  ${MODE_NAMES[mode].padEnd(11)} ${describe([run])} (warm-up round, not kept)`);
    }
  }
  const rounds = Array.from({ length: passes }, (_, round) =>
    round % 2 === 0 ? modes : [...modes].reverse(),
  );
  for (const mode of rounds.flat()) {
    const run = await workload(stacks[mode]);
    log(`  ${MODE_NAMES[mode].padEnd(11)} ${describe([run])}`);
    runs[mode].push(run);
  }
  return runs;
}

export const tracingSection: BenchSection = {
  name: 'tracing',
  async run(context: BenchContext): Promise<Figure[]> {
    const off = context.stack;
    if (off.observability) throw new Error("the run's own stack must export nothing (observability: false)");
    context.log('starting a second stack with Jaeger and VictoriaMetrics, every part exporting...');
    const on = await context.startStack({ observability: true });
    context.log('starting a third stack whose services run with OTEL_SDK_DISABLED=true...');
    const sdkOff = await context.startStack({ serviceEnv: { OTEL_SDK_DISABLED: 'true' } });
    context.log('starting a fourth stack exporting, whose gateway keeps one trace in ten...');
    const sampled = await context.startStack({ observability: true, telemetryEnv: SAMPLED_ENV });
    try {
      context.log(`setting up ${BUYERS} buyers and their products on the stacks (not timed)...`);
      const setups = new Map<RunningStack, Awaited<ReturnType<typeof setUp>>>();
      for (const stack of [off, on, sdkOff, sampled]) setups.set(stack, await setUp(stack.url, BUYERS));
      const setupOf = (stack: RunningStack) => setups.get(stack)!;
      await settle(context.log, [off, on, sdkOff, sampled]);

      // What telemetry costs with no exporter, on the cheapest request there is: a product read the
      // catalogue cache answers (gateway and products only), services with the SDK against without.
      context.log(`cached reads: GET /api/products/slug/:slug, ${context.connections} connections`);
      const cached = await compare(context.log, { 'sdk-off': sdkOff, off }, (stack) =>
        load(stack, context.connections, context.durationS, {
          url: `${stack.url}/api/products/slug/${setupOf(stack).products[0]!.slug}`,
        }),
      );

      // A product read that misses the catalogue cache (a query string of its own): gateway, products,
      // its database.
      context.log(`reads: GET /api/products/slug/:slug?miss=<n>, ${context.connections} connections`);
      const reads = await compare(context.log, { off, on, sampled }, (stack) => {
        const slug = setupOf(stack).products[0]!.slug;
        let miss = 0;
        return load(stack, context.connections, context.durationS, {
          url: `${stack.url}/api/products/slug/${slug}`,
          requests: [
            {
              method: 'GET',
              setupRequest: (request) => {
                miss += 1;
                return { ...request, path: `/api/products/slug/${slug}?miss=${miss}` };
              },
            },
          ],
        });
      });
      // An order: gateway, orders, the NATS command to products and its writes, the outbox event. First
      // as fast as each stack answers (one mirrored round: the throughput, and the pace of the next phase),
      // then at one fixed rate on every stack, whose CPU per order the figures compare.
      const orderLoad = (stack: RunningStack, overallRate?: number, idle?: Record<string, number>) => {
        const { buyers, products } = setupOf(stack);
        return load(
          stack,
          BUYERS,
          context.durationS,
          {
            url: `${stack.url}/api/orders`,
            requests: orderRequests(buyers, products),
            ...(overallRate ? { overallRate } : {}),
          },
          idle,
        );
      };
      context.log(`orders: POST /api/orders, ${BUYERS} buyers, as fast as each stack answers`);
      const saturated = await compare(context.log, { off, on, sampled }, (stack) => orderLoad(stack), {
        passes: 2,
      });
      const slowest = Math.min(
        ...[saturated.off, saturated.on, saturated.sampled].map((runs) => median(runs, 'rate')),
      );
      const pace = Math.max(1, Math.floor(ORDER_RATE_SHARE * slowest));
      context.log(`orders: the same at ${pace}/s on every stack (${ORDER_RATE_SHARE} × the slowest)`);
      // The saturated phase warmed every stack's order path.
      const orders = await compare(
        context.log,
        { off, on, sampled },
        async (stack) => {
          await settle(context.log, [stack]);
          return orderLoad(stack, pace, await idleRate(stack, IDLE_S));
        },
        { warmUp: false },
      );

      const settings =
        `${context.durationS} s per phase after ${WARM_UP_S} s warm-up, each stack ${PASSES} times in mirrored rounds after a round not kept, medians kept; ` +
        'CPU: Linux clocks of the gateway (this main thread) and the six services, per 2xx answer; ' +
        "Jaeger's own CPU is not counted (it is the viewer, not the shop)";
      const cost = (name: string, runs: { off: Run[]; on: Run[] }) =>
        `${name}: off ${describe(runs.off)}; on ${describe(runs.on)}; ` +
        `+${Math.round(median(runs.on, 'cpuUs') - median(runs.off, 'cpuUs'))} µs CPU per request with the exporter (medians; ` +
        `by part, off: ${partsOf(runs.off)}; on: ${partsOf(runs.on)})`;
      /** CPU per request of `runs` against `reference`'s, lower is better. */
      const cpuFigure = (
        id: string,
        what: [measured: string, reference: string],
        runs: [measured: Run[], reference: Run[]],
        target: number,
        notes: string,
      ) =>
        figure({
          id: `tracing.${id}`,
          section: 'tracing',
          measured: { what: what[0], value: median(runs[0], 'cpuUs'), unit: 'µs' },
          reference: { what: what[1], value: median(runs[1], 'cpuUs'), unit: 'µs' },
          better: 'lower',
          target,
          notes,
        });
      const noExporter = 'the same with no exporter';
      const read = 'CPU per uncached product read through the gateway';
      const order = `CPU per order placed through the gateway, ${BUYERS} buyers at ${pace} orders/s on every stack, each part's idle CPU taken off`;
      const throughput = `saturated (one mirrored round): off ${describe(saturated.off)}; on ${describe(saturated.on)}; 10 % kept ${describe(saturated.sampled)}; throughput on/off ${(median(saturated.on, 'rate') / median(saturated.off, 'rate')).toFixed(2)}`;
      const sampler = `sampler ${SAMPLED_ENV.OTEL_TRACES_SAMPLER} ${SAMPLED_ENV.OTEL_TRACES_SAMPLER_ARG} on every part`;
      return [
        cpuFigure(
          'cached-read-cpu-off-vs-sdk-off',
          [
            'CPU per cached product read through the gateway, no exporter (ids made and passed on, RED metrics)',
            'the same with the services’ SDK off (OTEL_SDK_DISABLED=true)',
          ],
          [cached.off, cached['sdk-off']],
          // The hot paths' goal (1.15 before it).
          1.05,
          `SDK off ${describe(cached['sdk-off'])}; no exporter ${describe(cached.off)}; +${Math.round(
            median(cached.off, 'cpuUs') - median(cached['sdk-off'], 'cpuUs'),
          )} µs CPU per request with the SDK and no exporter (medians; by part, SDK off: ${partsOf(
            cached['sdk-off'],
          )}; no exporter: ${partsOf(cached.off)})`,
        ),
        cpuFigure(
          'read-cpu-on-vs-off',
          [`${read}, every span exported`, 'the same with no exporter (ids propagated, nothing sent)'],
          [reads.on, reads.off],
          1.3,
          `${cost('reads', reads)}; ${settings}`,
        ),
        cpuFigure(
          'read-cpu-sampled-vs-off',
          [`${read}, one trace in ten exported`, noExporter],
          [reads.sampled, reads.off],
          1.1,
          `10 % kept ${describe(reads.sampled)}; by part: ${partsOf(reads.sampled)}; ${sampler}`,
        ),
        cpuFigure(
          'order-cpu-on-vs-off',
          [`${order}, every span exported`, noExporter],
          [orders.on, orders.off],
          1.3,
          `${cost('orders', orders)}; ${throughput}`,
        ),
        cpuFigure(
          'order-cpu-sampled-vs-off',
          [`${order}, one trace in ten exported`, noExporter],
          [orders.sampled, orders.off],
          1.1,
          `10 % kept ${describe(orders.sampled)}`,
        ),
      ];
    } finally {
      await on.stop();
      await sdkOff.stop();
      await sampled.stop();
    }
  },
};
