// A load phase as the bench's sections run it: an untimed warm-up, then the measured phase, with the CPU
// each part spent per answer (lib/part-clocks.ts) and how far two halves of the phase differ.
import autocannon from 'autocannon';
import type { RunningStack } from '@shop/dev-stack';
import type { BenchContext } from './figure.js';
import { drained, idleRates, partClocks, settle, spentSince } from './part-clocks.js';
import { spreadOf } from './regressions.js';

/** Each load phase starts with this much untimed load, so the JIT and the pools are warm. */
export const WARM_UP_S = 2;

export interface Load {
  /** 2xx answers per second over the measured phase. */
  rate: number;
  ok: number;
  failures: number;
  statuses: Record<string, number>;
  p50Ms: number;
  p99Ms: number;
}

export function summarize(result: autocannon.Result): Load {
  const statuses: Record<string, number> = {};
  for (const [code, stats] of Object.entries(result.statusCodeStats ?? {})) statuses[code] = stats.count ?? 0;
  const ok = result['2xx'];
  return {
    rate: ok / result.duration,
    ok,
    failures: result.non2xx + result.errors,
    statuses,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
  };
}

/** Runs `options` for a short untimed warm-up, then for the measured duration. */
export async function measure(
  context: BenchContext,
  options: Omit<autocannon.Options, 'duration' | 'connections'>,
): Promise<{ warmUp: Load; measured: Load }> {
  const run = (duration: number) =>
    autocannon({ ...options, duration, connections: context.connections, pipelining: 1 });
  const warmUp = summarize(await run(WARM_UP_S));
  const measured = summarize(await run(context.durationS));
  return { warmUp, measured };
}

/** CPU per answered request by part (µs), and each part's noise: the spread of two passes over their mean. */
export interface CpuPerAnswer {
  cpuUs: Record<string, number>;
  cpuNoise: Record<string, number>;
}

/**
 * As `measure`, with the measured duration in two halves, each timed by every part's CPU clock
 * (lib/part-clocks.ts; this process is the gateway and the load generator together): the CPU per answered
 * request by part, and how far the halves differ. The load of the halves together is the phase's.
 *
 * `drain`: a request whose answer sets work going (an order: events consumed, an e-mail written) is
 * counted whole. The stack's idle rates are read before the warm-up; after the warm-up and after each half
 * (once the stack has settled) the bench waits until that work is done, and each half's clocks run until then, less the idle rates for
 * the wait. Without it, what one half set going lands in the next or in nothing, and the halves (and runs)
 * differ by what the consumers happened to be behind by.
 */
export async function measureWithCpu(
  context: BenchContext,
  options: Omit<autocannon.Options, 'duration' | 'connections'>,
  stack: RunningStack = context.stack,
  { drain = false }: { drain?: boolean } = {},
): Promise<{ warmUp: Load; measured: Load; cpu: CpuPerAnswer; phases: number; drainedMs: number[] }> {
  const run = (duration: number) =>
    autocannon({ ...options, duration, connections: context.connections, pipelining: 1 });
  if (drain) await settle(context.log, [stack]);
  const idle = drain ? await idleRates(stack) : undefined;
  const warmUp = summarize(await run(WARM_UP_S));
  if (idle) await drained(stack, idle);
  const drainedMs: number[] = [];
  const halves: Array<{ result: autocannon.Result; perAnswerUs: Record<string, number> }> = [];
  for (const _half of [1, 2]) {
    const before = partClocks(stack);
    const result = await run(context.durationS / 2);
    const waitedMs = idle ? await drained(stack, idle) : 0;
    drainedMs.push(waitedMs);
    const spent = Object.fromEntries(
      Object.entries(spentSince(before, partClocks(stack))).map(([part, ms]) => [
        part,
        Math.max(0, ms - ((idle?.[part] ?? 0) * waitedMs) / 1000),
      ]),
    );
    const answered = Math.max(1, result['2xx']);
    halves.push({
      result,
      perAnswerUs: Object.fromEntries(
        Object.entries(spent).map(([part, ms]) => [part, (ms * 1000) / answered]),
      ),
    });
  }
  const [first, second] = [halves[0]!, halves[1]!];
  const parts = Object.keys(first.perAnswerUs).filter(
    (part) => first.perAnswerUs[part]! + (second.perAnswerUs[part] ?? 0) > 0,
  );
  const cpu: CpuPerAnswer = {
    cpuUs: Object.fromEntries(
      parts.map((part) => [
        part,
        Math.round((first.perAnswerUs[part]! + (second.perAnswerUs[part] ?? 0)) / 2),
      ]),
    ),
    cpuNoise: Object.fromEntries(
      parts.map((part) => [
        part,
        Math.round(spreadOf(first.perAnswerUs[part]!, second.perAnswerUs[part] ?? 0) * 1000) / 1000,
      ]),
    ),
  };
  const [a, b] = [summarize(first.result), summarize(second.result)];
  const statuses = { ...a.statuses };
  for (const [code, count] of Object.entries(b.statuses)) statuses[code] = (statuses[code] ?? 0) + count;
  const measured: Load = {
    rate: (a.ok + b.ok) / (first.result.duration + second.result.duration),
    ok: a.ok + b.ok,
    failures: a.failures + b.failures,
    statuses,
    // Latency of the phase: the halves' medians averaged, the worse of their 99th percentiles.
    p50Ms: (a.p50Ms + b.p50Ms) / 2,
    p99Ms: Math.max(a.p99Ms, b.p99Ms),
  };
  // The warm-up and the two halves: each stops with up to one request per connection in flight.
  return { warmUp, measured, cpu, phases: 3, drainedMs };
}

export const describeCpu = ({ cpuUs, cpuNoise }: CpuPerAnswer) =>
  Object.entries(cpuUs)
    .sort(([, a], [, b]) => b - a)
    .map(([part, us]) => `${part} ${us} µs (±${Math.round((cpuNoise[part] ?? 0) * 100)} %)`)
    .join(', ');

export const describe = (load: Load) =>
  `${load.ok} × 2xx, ${load.failures} failed (${Object.entries(load.statuses)
    .map(([code, count]) => `${code}×${count}`)
    .join(' ')}), p50 ${load.p50Ms} ms, p99 ${load.p99Ms} ms`;
