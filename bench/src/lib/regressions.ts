// The regression guard (docs/performance.md, "Regression guard"): each figure that measures CPU per request
// (or per order, per page) by part is compared with the same figure of the report of record, the one
// committed in bench/out/. A part that got costlier by more than the tolerance, beyond the run-to-run
// noise either run measured for it, is named with the figure. A command to run before submitting a
// change to a hot path, not a timed test.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import type { Figure } from './figure.js';

/** How much costlier a part may get, beyond its measured noise, before it is reported. */
export const CPU_TOLERANCE = 0.15;

/** A part of a figure that costs more CPU per request than it did in the report of record. */
export interface Regression {
  figure: string;
  part: string;
  recordUs: number;
  nowUs: number;
  /** nowUs / recordUs − 1. */
  change: number;
  /** The change it was allowed: the tolerance plus the larger noise either run measured for the part. */
  allowed: number;
  /** The run of record the part is compared with. */
  recordRun?: string;
}

/**
 * The parts of `now`'s figures costlier than in `record` by more than `tolerance` plus their noise. A figure
 * or a part the record does not hold (new, renamed) is not compared; nor is a part the record measured at 0.
 */
export function cpuRegressions(
  record: readonly Figure[],
  now: readonly Figure[],
  tolerance = CPU_TOLERANCE,
): Regression[] {
  const recorded = new Map(record.map((figure) => [figure.id, figure]));
  const found: Regression[] = [];
  for (const figure of now) {
    const before = recorded.get(figure.id);
    if (!figure.cpuUs || !before?.cpuUs) continue;
    for (const [part, nowUs] of Object.entries(figure.cpuUs)) {
      const recordUs = before.cpuUs[part];
      if (recordUs === undefined || recordUs <= 0) continue;
      const noise = Math.max(figure.cpuNoise?.[part] ?? 0, before.cpuNoise?.[part] ?? 0);
      const allowed = tolerance + noise;
      const change = nowUs / recordUs - 1;
      if (change > allowed)
        found.push({ figure: figure.id, part, recordUs, nowUs, change, allowed, recordRun: before.run });
    }
  }
  return found.sort((a, b) => b.change - a.change);
}

const percent = (value: number) => `${Math.round(value * 100)} %`;

/** One line per regression, for the console and the report. */
export function describeRegression(regression: Regression): string {
  return (
    `${regression.figure}: ${regression.part} ${Math.round(regression.recordUs)} → ${Math.round(regression.nowUs)} µs ` +
    `per request (+${percent(regression.change)}, allowed +${percent(regression.allowed)})`
  );
}

/**
 * The figures of the report of record: `bench/out/report.json` as committed (HEAD), so that runs of a
 * change, which rewrite the file, are compared with what the branch holds and not with themselves. Falls
 * back to the file as it is outside a git checkout; none when there is neither.
 */
export function figuresOfRecord(repoRoot: string, reportPath = 'bench/out/report.json'): Figure[] {
  let text: string | undefined;
  try {
    text = execFileSync('git', ['show', `HEAD:${reportPath}`], {
      cwd: repoRoot,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
  } catch {
    const onDisk = `${repoRoot}/${reportPath}`;
    text = existsSync(onDisk) ? readFileSync(onDisk, 'utf8') : undefined;
  }
  if (text === undefined) return [];
  const report = JSON.parse(text) as { figures?: Figure[] };
  return report.figures ?? [];
}

/** The spread of two passes of one measure, relative to their mean: the run-to-run noise of that part. */
export function spreadOf(a: number, b: number): number {
  const mean = (a + b) / 2;
  return mean > 0 ? Math.abs(a - b) / mean : 0;
}
