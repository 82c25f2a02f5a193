// Where a load phase's CPU goes, part by part: Linux's per-process clocks (utime + stime, fields 14 and
// 15 of /proc/<pid>/stat, in ticks of 10 ms), read before and after the phase.
import { readFileSync } from 'node:fs';
import type { RunningStack } from '@shop/tools';

const TICK_MS = 10;

/** CPU ms a process has used so far (0 once it is gone). */
export function processCpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return 0;
  }
}

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
