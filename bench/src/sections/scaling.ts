// docs/scaling.md: what a second copy of products and of orders buys. The same three workloads as the
// reads and orders sections (a cached product read, the same read missing the catalogue cache, an order),
// through the gateway, against the run's own stack (one copy of each service) and a stack started here
// with two copies of products and of orders (SHOP_REPLICAS=products=2,orders=2), in mirrored order
// (1 2 2 1) so drift on the machine weighs on both alike. Each phase also reads where the CPU went, part
// by part (docs/scaling.md reads the bottleneck from it). Every order answered 201 must be stored.
import autocannon from 'autocannon';
import type { RunningStack } from '@shop/dev-stack';
import { type BenchContext, type BenchSection, type Figure, figure } from '../lib/figure.js';
import { BENCH_PROCESS, partClocks, processCpuMs, spentSince } from '../lib/part-clocks.js';
import { describe, type Load, summarize, WARM_UP_S } from '../lib/load-phases.js';
import { type Setup, orderRequests, setUp, storedOrders, uncachedReads } from '../lib/order-traffic.js';

/** The stacks compared: one copy of each service, and two of products and orders. */
const COPIES = [1, 2] as const;
type Copies = (typeof COPIES)[number];

interface Phase {
  load: Load;
  /** CPU ms per part over the measured phase. */
  cpuMs: Record<string, number>;
  seconds: number;
  /** Orders answered 201 in the warm-up and the phase (orders only). */
  answered: number;
}

type Workload = 'reads' | 'uncached' | 'orders';
const WORKLOADS: Record<Workload, string> = {
  reads: 'GET /api/products/slug/:slug (catalogue cache hit)',
  uncached: 'GET /api/products/slug/:slug?miss=<n> (every read a cache miss: the database)',
  orders: 'POST /api/orders (distinct products)',
};

function options(workload: Workload, stack: RunningStack, setup: Setup): autocannon.Options {
  const slug = setup.products[0]!.slug;
  if (workload === 'reads') return { url: `${stack.url}/api/products/slug/${slug}` };
  if (workload === 'orders')
    return { url: `${stack.url}/api/orders`, requests: orderRequests(setup.buyers, setup.products) };
  return uncachedReads(stack.url, slug);
}

async function phase(
  context: BenchContext,
  workload: Workload,
  stack: RunningStack,
  setup: Setup,
): Promise<Phase> {
  const run = (duration: number) =>
    autocannon({
      ...options(workload, stack, setup),
      duration,
      connections: context.connections,
      pipelining: 1,
    });
  const warmUp = summarize(await run(WARM_UP_S));
  const before = partClocks(stack);
  const started = Date.now();
  const load = summarize(await run(context.durationS));
  const seconds = (Date.now() - started) / 1000;
  return { load, cpuMs: spentSince(before, partClocks(stack)), seconds, answered: warmUp.ok + load.ok };
}

/** The parts' CPU over a phase: share of one core, and µs per answered request, busiest first. */
function cpuNote(run: Phase): string {
  const answered = Math.max(1, run.load.ok);
  return Object.entries(run.cpuMs)
    .filter(([, ms]) => ms > 0)
    .sort((a, b) => b[1] - a[1])
    .map(
      ([part, ms]) =>
        `${part} ${Math.round(ms / run.seconds / 10)} % of a core (${Math.round((ms * 1000) / answered)} µs/req)`,
    )
    .join(', ');
}

/** Waits (at most a minute) until the stacks' services and database use under 5 % of a core. */
async function waitIdle(stacks: RunningStack[], log: (line: string) => void): Promise<void> {
  const busy = () =>
    stacks.reduce(
      (sum, stack) =>
        sum +
        Object.entries(partClocks(stack))
          .filter(([part]) => part !== BENCH_PROCESS)
          .reduce((total, [, ms]) => total + ms, 0),
      0,
    );
  const started = Date.now();
  for (;;) {
    const before = busy();
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    if (busy() - before <= 100 || Date.now() - started > 60_000) break;
  }
  log(`  stacks idle (or a minute passed) after ${Math.round((Date.now() - started) / 1000)} s`);
}

const mean = (runs: Phase[]) => runs.reduce((sum, run) => sum + run.load.rate, 0) / runs.length;

export const scalingSection: BenchSection = {
  name: 'scaling',
  async run(context: BenchContext): Promise<Figure[]> {
    context.log('starting a second stack with two copies of products and of orders...');
    const stacks: Record<Copies, RunningStack> = {
      1: context.stack,
      2: await context.startStack({ replicas: { products: 2, orders: 2 }, natsCluster: 1 }),
    };
    try {
      context.log(`setting up ${context.connections} buyers and their products on each stack (not timed)...`);
      const setups = {} as Record<Copies, Setup>;
      const storedBefore = {} as Record<Copies, number>;
      for (const copies of COPIES) {
        setups[copies] = await setUp(stacks[copies].url, context.connections);
        storedBefore[copies] = await storedOrders(stacks[copies].url, setups[copies].admin);
      }
      const procs = processCpuMs(process.pid);
      await waitIdle(Object.values(stacks), context.log);

      const runs = {} as Record<Workload, Record<Copies, Phase[]>>;
      for (const workload of Object.keys(WORKLOADS) as Workload[]) {
        context.log(`${WORKLOADS[workload]}, ${context.connections} connections`);
        runs[workload] = { 1: [], 2: [] };
        for (const copies of [1, 2, 2, 1] as const) {
          const run = await phase(context, workload, stacks[copies], setups[copies]);
          context.log(`  ${copies} ${copies === 1 ? 'copy ' : 'copies'} ${describe(run.load)}`);
          context.log(`    CPU: ${cpuNote(run)}`);
          runs[workload][copies].push(run);
        }
      }

      // Every order answered 201 is stored; up to one per connection and phase more may be (in flight
      // when a phase stopped), never fewer.
      const unstored: string[] = [];
      for (const copies of COPIES) {
        const stored = (await storedOrders(stacks[copies].url, setups[copies].admin)) - storedBefore[copies];
        const answered = runs.orders[copies].reduce((sum, run) => sum + run.answered, 0);
        if (stored < answered || stored > answered + 4 * context.connections)
          unstored.push(`${copies} copies: ${stored} stored for ${answered} answered`);
      }
      context.log(`  (the bench process used ${processCpuMs(process.pid) - procs} ms CPU while measuring)`);

      return (Object.keys(WORKLOADS) as Workload[]).map((workload) => {
        const [one, two] = [runs[workload][1], runs[workload][2]];
        const failed = [...one, ...two].reduce((sum, run) => sum + run.load.failures, 0);
        const unit = workload === 'orders' ? 'orders/s' : 'req/s';
        const what = (copies: Copies) =>
          `${WORKLOADS[workload]} through the gateway, ${copies === 1 ? 'one copy' : 'two copies'} of products and orders, ${context.connections} connections`;
        const found = figure({
          id: `scaling.${workload}-two-vs-one`,
          section: 'scaling',
          measured: { what: what(2), value: mean(two), unit },
          reference: { what: what(1), value: mean(one), unit },
          better: 'higher',
          // Two copies on the same two cores cannot add cores; they must not cost throughput either.
          target: 0.9,
          notes:
            `${context.durationS} s per phase after ${WARM_UP_S} s warm-up, 1 2 2 1. ` +
            `one copy: ${one.map((run) => describe(run.load)).join('; ')}; CPU ${cpuNote(one[0]!)}. ` +
            `two copies: ${two.map((run) => describe(run.load)).join('; ')}; CPU ${cpuNote(two[0]!)}` +
            (failed > 0 ? `; FAILED: ${failed} non-2xx answers or errors` : '') +
            (workload === 'orders' && unstored.length > 0 ? `; UNSTORED: ${unstored.join(', ')}` : ''),
        });
        const clean = failed === 0 && (workload !== 'orders' || unstored.length === 0);
        return { ...found, pass: found.pass && clean };
      });
    } finally {
      await stacks[2].stop();
    }
  },
};
