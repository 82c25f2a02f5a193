// docs/performance.md, "Orders": what the order path's group-commit queues save. The same orders (32
// buyers, distinct products) against the run's own stack, whose queues batch, and a stack started here
// whose services write each queued item alone and at once (GROUP_COMMIT_OFF: `all` by default, or the
// queues BENCH_GROUP_COMMIT_OFF names), in mirrored order (batched, alone, alone, batched). CPU per order
// by part is read as the orders section reads it. Every order answered 201 must be stored.
import type { RunningStack } from '@shop/dev-stack';
import { type BenchContext, type BenchSection, type Figure, figure } from '../lib/figure.js';
import { settle } from '../lib/part-clocks.js';
import { type CpuPerAnswer, describe, describeCpu, measureWithCpu } from '../lib/load-phases.js';
import { type Setup, orderRequests, setUp, storedOrders } from '../lib/order-traffic.js';

type Mode = 'batched' | 'alone';

interface Pass {
  rate: number;
  /** Orders answered 201, warm-up included. */
  answered: number;
  failures: number;
  cpu: CpuPerAnswer;
  phases: number;
  described: string;
}

/** The CPU per order of each part, averaged over `passes`. */
function meanCpu(passes: Pass[]): Record<string, number> {
  const parts = [...new Set(passes.flatMap((pass) => Object.keys(pass.cpu.cpuUs)))];
  return Object.fromEntries(
    parts.map((part) => [
      part,
      Math.round(passes.reduce((sum, pass) => sum + (pass.cpu.cpuUs[part] ?? 0), 0) / passes.length),
    ]),
  );
}

const total = (cpuUs: Record<string, number>) => Object.values(cpuUs).reduce((sum, us) => sum + us, 0);

export const groupCommitSection: BenchSection = {
  name: 'group-commit',
  async run(context: BenchContext): Promise<Figure[]> {
    const queues = process.env['BENCH_GROUP_COMMIT_OFF'] || 'all';
    context.log(`starting a second stack whose services write alone: GROUP_COMMIT_OFF=${queues}...`);
    const stacks: Record<Mode, RunningStack> = {
      batched: context.stack,
      alone: await context.startStack({ serviceEnv: { GROUP_COMMIT_OFF: queues } }),
    };
    try {
      context.log(`setting up ${context.connections} buyers and their products on each stack (not timed)...`);
      const setups = {} as Record<Mode, Setup>;
      const storedBefore = {} as Record<Mode, number>;
      for (const mode of ['batched', 'alone'] as const) {
        setups[mode] = await setUp(stacks[mode].url, context.connections);
        storedBefore[mode] = await storedOrders(stacks[mode].url, setups[mode].admin);
      }
      // The second stack has just started (seeding, image variants, a cold JIT): measured at once, its
      // first pass came out up to 2.3 times slower than its second.
      await settle(context.log, [stacks.batched, stacks.alone]);
      const passes: Record<Mode, Pass[]> = { batched: [], alone: [] };
      context.log(`orders: POST /api/orders, ${context.connections} buyers`);
      for (const mode of ['batched', 'alone', 'alone', 'batched'] as const) {
        const { buyers, products } = setups[mode];
        const run = await measureWithCpu(
          context,
          { url: `${stacks[mode].url}/api/orders`, requests: orderRequests(buyers, products) },
          stacks[mode],
        );
        const pass: Pass = {
          rate: run.measured.rate,
          answered: run.warmUp.ok + run.measured.ok,
          failures: run.warmUp.failures + run.measured.failures,
          cpu: run.cpu,
          phases: run.phases,
          described: describe(run.measured),
        };
        context.log(`  ${mode.padEnd(7)} ${pass.described}\n    CPU per order: ${describeCpu(run.cpu)}`);
        passes[mode].push(pass);
      }

      // Every order answered 201 is stored; up to one per connection and phase more may be (in flight
      // when a phase stopped), never fewer.
      const problems: string[] = [];
      for (const mode of ['batched', 'alone'] as const) {
        const stored = (await storedOrders(stacks[mode].url, setups[mode].admin)) - storedBefore[mode];
        const answered = passes[mode].reduce((sum, pass) => sum + pass.answered, 0);
        const inFlight = passes[mode].reduce((sum, pass) => sum + pass.phases, 0) * context.connections;
        if (stored < answered || stored > answered + inFlight)
          problems.push(`${mode}: ${stored} stored for ${answered} answered`);
        const failed = passes[mode].reduce((sum, pass) => sum + pass.failures, 0);
        if (failed > 0) problems.push(`${mode}: ${failed} failed`);
      }

      const [batched, alone] = [meanCpu(passes.batched), meanCpu(passes.alone)];
      const rate = (mode: Mode) =>
        passes[mode].reduce((sum, pass) => sum + pass.rate, 0) / passes[mode].length;
      const byPart = (cpuUs: Record<string, number>) =>
        Object.entries(cpuUs)
          .sort(([, a], [, b]) => b - a)
          .map(([part, us]) => `${part} ${us} µs`)
          .join(', ');
      const found = figure({
        id: 'group-commit.cpu-alone-vs-batched',
        section: 'group-commit',
        measured: {
          what: `CPU per order, every part, with GROUP_COMMIT_OFF=${queues} (each queued write alone), ${context.connections} buyers`,
          value: total(alone),
          unit: 'µs',
        },
        reference: {
          what: 'the same with every queue batching (the shop as it runs)',
          value: total(batched),
          unit: 'µs',
        },
        better: 'lower',
        target: 1,
        // What a queue saves is reported, not held to a target: above 1, the queues pay.
        reportOnly: true,
        notes:
          `batched, alone, alone, batched; ${context.durationS} s per phase. orders/s: batched ${Math.round(rate('batched'))}, ` +
          `alone ${Math.round(rate('alone'))} (${(rate('alone') / rate('batched')).toFixed(2)}x). CPU per order by part, ` +
          `batched: ${byPart(batched)}; alone: ${byPart(alone)}. Passes: batched ${passes.batched
            .map((pass) => pass.described)
            .join('; ')}; alone ${passes.alone.map((pass) => pass.described).join('; ')}` +
          (problems.length > 0 ? `; FAILED: ${problems.join(', ')}` : ''),
      });
      return [{ ...found, pass: problems.length === 0 }];
    } finally {
      await stacks.alone.stop();
    }
  },
};
