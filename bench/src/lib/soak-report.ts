import { readFileSync } from 'node:fs';
// The soak's report: p50/p99 per route, answers by status, and each service copy's memory over the run.
import { routes, serverErrors } from './soak-calls.js';

/** The first part of the run, not judged for memory: pools, caches and JIT settle. */
const WARM_UP_SHARE = 0.2;
const MAX_MEMORY_GROWTH = 0.1;

/** Resident memory of a process in MB, from /proc (Linux). */
export function rssMb(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1]);
    return Number.isFinite(kb) ? Math.round(kb / 102.4) / 10 : undefined;
  } catch {
    return undefined;
  }
}

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/** One memory sample: seconds since the start, and each service copy's resident MB. */
export type MemorySample = { atS: number } & Record<string, number | undefined>;

/** What the soak ran: its length, its shoppers, and the service copies whose memory was sampled. */
export interface SoakSettings {
  minutes: number;
  shoppers: number;
  /** `products`, `products-2`, ...: every copy of every service. */
  instances: string[];
  /** What ran besides the copies: NATS nodes, and whether traces and metrics were collected. */
  stack: string;
}

/**
 * How much each copy's memory grew over the judged samples: the highest sample of the second half over
 * the highest of the first half. Resident memory is a sawtooth under load (it climbs for minutes, then a
 * collection gives back a third of it: 340 -> 200 MB in the 2026-11-25 run), so two points or two short
 * medians compare a trough with a peak. The peak of each half is what a leak raises: more kept, a higher
 * top.
 */
export function memoryGrowth(
  judged: MemorySample[],
  names: string[],
): Record<string, { afterWarmUpMb: number; endMb: number; growth: number }> {
  const middle = judged[0]!.atS + (judged.at(-1)!.atS - judged[0]!.atS) / 2;
  const peak = (name: string, rows: MemorySample[]) => Math.max(0, ...rows.map((row) => row[name] ?? 0));
  return Object.fromEntries(
    names.map((name) => {
      const first = peak(
        name,
        judged.filter((row) => row.atS < middle),
      );
      const last = peak(
        name,
        judged.filter((row) => row.atS >= middle),
      );
      const ratio = first > 0 ? last / first - 1 : 0;
      return [name, { afterWarmUpMb: first, endMb: last, growth: Math.round(ratio * 1000) / 1000 }];
    }),
  );
}

/**
 * The soak's verdict and report: any 5xx or dropped request fails it, and so does a service copy whose
 * memory grew more than 10 % after warm-up: the highest sample of the second half of the judged time
 * over the highest of the first half.
 */
export function summarize(
  memory: MemorySample[],
  { minutes: MINUTES, shoppers: SHOPPERS, instances: SERVICES, stack }: SoakSettings,
) {
  const failures: string[] = [];
  const rows = [...routes.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([route, stats]) => {
      const sorted = [...stats.latencies].sort((a, b) => a - b);
      const bad = Object.entries(stats.statuses).filter(([status]) => !/^[1-4]\d\d$/.test(status));
      for (const [status, count] of bad) failures.push(`${route}: ${count} × ${status}`);
      return {
        route,
        requests: sorted.length,
        statuses: stats.statuses,
        p50Ms: Math.round(percentile(sorted, 50)),
        p99Ms: Math.round(percentile(sorted, 99)),
      };
    });
  const durationS = memory.at(-1)!.atS - memory[0]!.atS;
  const warmUpEnd = memory[0]!.atS + durationS * WARM_UP_SHARE;
  const judged = memory.filter((row) => row.atS >= warmUpEnd);
  const growth = memoryGrowth(judged, SERVICES);
  for (const [name, { growth: ratio }] of Object.entries(growth))
    if (ratio > MAX_MEMORY_GROWTH)
      failures.push(`${name}: memory grew ${(ratio * 100).toFixed(1)} % after warm-up`);
  const total = rows.reduce((sum, row) => sum + row.requests, 0);
  const statusTotals: Record<string, number> = {};
  for (const row of rows)
    for (const [status, count] of Object.entries(row.statuses))
      statusTotals[status] = (statusTotals[status] ?? 0) + count;

  const lines = [
    `# Soak report`,
    '',
    `${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ${MINUTES} min, ${SHOPPERS} shoppers + 1 admin through the gateway, ` +
      `${total} requests (${Math.round(total / durationS)}/s). Warm-up: the first ${WARM_UP_SHARE * 100} %.`,
    '',
    `Stack: ${SERVICES.join(', ')}; ${stack}.`,
    '',
    `**${failures.length === 0 ? 'PASSED' : 'FAILED'}**${failures.length ? `: ${failures.join('; ')}` : ': no 5xx, no dropped request, no service grew more than 10 % after warm-up.'}`,
    '',
    `Answers by status: ${Object.entries(statusTotals)
      .map(([status, count]) => `${status} × ${count}`)
      .join(', ')}`,
    '',
    '| route | requests | statuses | p50 ms | p99 ms |',
    '| --- | ---: | --- | ---: | ---: |',
    ...rows.map(
      (row) =>
        `| \`${row.route}\` | ${row.requests} | ${Object.entries(row.statuses)
          .map(([s, c]) => `${s}×${c}`)
          .join(' ')} | ${row.p50Ms} | ${row.p99Ms} |`,
    ),
    '',
    ...(serverErrors.length === 0
      ? []
      : [
          '## Server errors and dropped requests',
          '',
          `The first ${serverErrors.length}, each with the gateway's \`Kong-Request-ID\` that the parts' log lines carry.`,
          '',
          '| sent at | route | status | message | request id |',
          '| --- | --- | --- | --- | --- |',
          ...serverErrors.map(
            (error) =>
              `| ${error.at} | \`${error.route}\` | ${error.status} | ${error.message.replaceAll('|', '\\|')} | ${error.requestId ?? ''} |`,
          ),
          '',
        ]),
    '## Memory (resident, MB)',
    '',
    `| service | peak, first half after warm-up | peak, second half | growth |`,
    '| --- | ---: | ---: | ---: |',
    ...SERVICES.map(
      (name) =>
        `| ${name} | ${growth[name]!.afterWarmUpMb} | ${growth[name]!.endMb} | ${(growth[name]!.growth * 100).toFixed(1)} % |`,
    ),
    '',
    '<details><summary>Every sample</summary>',
    '',
    `| s | ${SERVICES.join(' | ')} |`,
    `| ---: | ${SERVICES.map(() => '---:').join(' | ')} |`,
    ...memory.map((row) => `| ${row.atS} | ${SERVICES.map((name) => row[name] ?? '').join(' | ')} |`),
    '',
    '</details>',
    '',
  ];
  return {
    failures,
    markdown: lines.join('\n'),
    json: {
      minutes: MINUTES,
      shoppers: SHOPPERS,
      stack: { instances: SERVICES, rest: stack },
      total,
      failures,
      serverErrors,
      routes: rows,
      memory,
      growth,
    },
  };
}
