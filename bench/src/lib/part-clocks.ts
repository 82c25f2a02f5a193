// Where a load phase's CPU goes, part by part: Linux's per-process clocks (utime + stime, fields 14 and
// 15 of /proc/<pid>/stat, in ticks of 10 ms), read before and after the phase.
import { readFileSync } from 'node:fs';
import type { RunningStack } from '@shop/dev-stack';

const TICK_MS = 10;

/** CPU ms a process or thread has used so far, from its stat file (0 once it is gone). */
export function statCpuMs(statPath: string): number {
  try {
    const fields = readFileSync(statPath, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return 0;
  }
}

/** CPU ms a process has used so far (0 once it is gone). */
export const processCpuMs = (pid: number): number => statCpuMs(`/proc/${pid}/stat`);

/** CPU ms of this process's main thread: the gateway, without a load generator in a worker thread. */
export const mainThreadCpuMs = (): number => statCpuMs(`/proc/${process.pid}/task/${process.pid}/stat`);

/** This process: the gateway (it runs in the bench's main thread) and the load generator beside it. */
export const BENCH_PROCESS = 'gateway + load generator';

/**
 * The CPU clocks of every part of `stack` that a request or an order may use: each copy of every service
 * (`products`, `products-2`, ...), the database, NATS (each node of a cluster) and this process.
 */
export function partClocks(stack: RunningStack): Record<string, number> {
  const clocks: Record<string, number> = { [BENCH_PROCESS]: processCpuMs(process.pid) };
  const names: Parameters<RunningStack['pidOf']>[0][] = [
    ...stack.instances.map((each) => each.name),
    'mongo',
    'nats',
    ...[1, 2, 3, 4, 5].map((node) => `nats-${node}` as const),
  ];
  for (const name of names) {
    const pid = stack.pidOf(name);
    if (pid !== undefined) clocks[name] = processCpuMs(pid);
  }
  return clocks;
}

/** CPU ms each part spent between two readings of `partClocks`. */
export function spentSince(before: Record<string, number>, after: Record<string, number>) {
  return Object.fromEntries(Object.keys(after).map((part) => [part, after[part]! - (before[part] ?? 0)]));
}

/** CPU ms the stacks' parts have used so far, this process (the gateway and the load generator) left out. */
function stacksCpuMs(stacks: RunningStack[]): number {
  return stacks.reduce((sum, stack) => {
    const { [BENCH_PROCESS]: _bench, ...parts } = partClocks(stack);
    return sum + Object.values(parts).reduce((a, b) => a + b, 0);
  }, 0);
}

/**
 * Waits until the stacks have settled: after start-up the services still seed, make image variants and
 * compile their hot paths, and a stack measured while another is busy looks slower than it is (the
 * first runs of the tracing section came out up to 1.9x slower than the mirrored last ones). Settled is
 * two windows of two seconds in a row that differ by under a quarter, under half a core in all (idle
 * stacks still poll: about 1 % of a core per process here); gives up after two minutes and says so.
 */
export async function settle(log: (line: string) => void, stacks: RunningStack[]): Promise<void> {
  const busy = () => stacksCpuMs(stacks);
  const started = Date.now();
  let previous = Number.POSITIVE_INFINITY;
  for (;;) {
    const before = busy();
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const busyMs = busy() - before;
    if (busyMs < 1000 && Math.abs(busyMs - previous) < previous / 4) {
      log(`  stacks settled after ${Math.round((Date.now() - started) / 1000)} s (${busyMs} ms CPU in 2 s)`);
      return;
    }
    if (Date.now() - started > 120_000) {
      log(`  the stacks were still busy (${busyMs} ms CPU in 2 s) after 2 min; measuring anyway`);
      return;
    }
    previous = busyMs;
  }
}

/** Each part's CPU ms per second while nothing is asked of the stack (services still poll). */
export async function idleRates(stack: RunningStack, windowMs = 2000): Promise<Record<string, number>> {
  const before = partClocks(stack);
  await new Promise((resolve) => setTimeout(resolve, windowMs));
  const spent = spentSince(before, partClocks(stack));
  return Object.fromEntries(Object.entries(spent).map(([part, ms]) => [part, (ms * 1000) / windowMs]));
}

/**
 * Waits until the work a load phase left behind is done: the requests still in flight when the load
 * generator stopped, and what they set going after their answer (events consumed, e-mails written,
 * outbox records relayed). Done is a second in which the parts together spend no more than their idle
 * rates (`idle`) and a tenth of a core besides; gives up after 30 s. Answers how long it waited (ms).
 */
export async function drained(stack: RunningStack, idle: Record<string, number>): Promise<number> {
  const idleMsPerS = Object.entries(idle)
    .filter(([part]) => part !== BENCH_PROCESS)
    .reduce((sum, [, rate]) => sum + rate, 0);
  const started = Date.now();
  for (;;) {
    const before = stacksCpuMs([stack]);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    if (stacksCpuMs([stack]) - before <= idleMsPerS + 100 || Date.now() - started > 30_000)
      return Date.now() - started;
  }
}
