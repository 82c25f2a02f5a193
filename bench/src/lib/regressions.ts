// The regression guard (docs/performance.md, "Regression guard"): each figure that measures CPU per request
// (or per order, per page) by part is compared with the same figure of the report of record, the one
// committed in bench/out/. A part that got costlier by more than the tolerance, beyond the run-to-run
// noise either run measured for it, is named with the figure. When both runs measured the bare Node
// server, each part is first scaled by how much more that yardstick cost in this run, so a run on a slower
// or busier machine than the record's is compared for what the code costs. A command to run before
// submitting a change to a hot path, not a timed test.
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
  /** How much more the machine yardstick cost in this run than in the record's (1: not scaled). */
  machineFactor: number;
}

/**
 * The machine's yardstick: a bare Node server answering the same bytes (the reads section). Its CPU per
 * request depends on the machine and how busy it is, not on the shop's code.
 */
export const YARDSTICK = { figure: 'reads.gateway-vs-bare', part: 'bare server' } as const;

/**
 * How much more CPU the yardstick cost in `now` than in `record`, and the noise either run measured for it;
 * a factor of 1 (not scaled) when either run lacks it (a run of the orders section alone).
 */
export function machineFactor(
  record: readonly Figure[],
  now: readonly Figure[],
): { factor: number; noise: number } {
  const yardstickOf = (figures: readonly Figure[]) =>
    figures.find((figure) => figure.id === YARDSTICK.figure);
  const [before, after] = [yardstickOf(record), yardstickOf(now)];
  const [recordUs, nowUs] = [before?.cpuUs?.[YARDSTICK.part], after?.cpuUs?.[YARDSTICK.part]];
  if (!recordUs || !nowUs || recordUs <= 0 || nowUs <= 0) return { factor: 1, noise: 0 };
  const noise = Math.max(before?.cpuNoise?.[YARDSTICK.part] ?? 0, after?.cpuNoise?.[YARDSTICK.part] ?? 0);
  return { factor: nowUs / recordUs, noise };
}

/**
 * The parts of `now`'s figures costlier than in `record` by more than `tolerance` plus their noise, each
 * scaled by the machine factor first (its noise allowed too). A figure or a part the record does not hold
 * (new, renamed) is not compared; nor is a part the record measured at 0, nor the yardstick itself.
 */
export function cpuRegressions(
  record: readonly Figure[],
  now: readonly Figure[],
  tolerance = CPU_TOLERANCE,
): Regression[] {
  const recorded = new Map(record.map((figure) => [figure.id, figure]));
  const machine = machineFactor(record, now);
  const found: Regression[] = [];
  for (const figure of now) {
    const before = recorded.get(figure.id);
    if (!figure.cpuUs || !before?.cpuUs) continue;
    for (const [part, nowUs] of Object.entries(figure.cpuUs)) {
      const recordUs = before.cpuUs[part];
      if (recordUs === undefined || recordUs <= 0) continue;
      if (figure.id === YARDSTICK.figure && part === YARDSTICK.part) continue;
      const noise = Math.max(figure.cpuNoise?.[part] ?? 0, before.cpuNoise?.[part] ?? 0);
      const allowed = tolerance + noise + machine.noise;
      const change = nowUs / (recordUs * machine.factor) - 1;
      if (change > allowed)
        found.push({
          figure: figure.id,
          part,
          recordUs,
          nowUs,
          change,
          allowed,
          recordRun: before.run,
          machineFactor: machine.factor,
        });
    }
  }
  return found.sort((a, b) => b.change - a.change);
}

const percent = (value: number) => `${Math.round(value * 100)} %`;

/** One line per regression, for the console and the report. */
export function describeRegression(regression: Regression): string {
  const scaled =
    regression.machineFactor === 1
      ? ''
      : `, on a machine where the bare server cost ${regression.machineFactor.toFixed(2)}x the record's`;
  return (
    `${regression.figure}: ${regression.part} ${Math.round(regression.recordUs)} → ${Math.round(regression.nowUs)} µs ` +
    `per request (+${percent(regression.change)}, allowed +${percent(regression.allowed)}${scaled})`
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
