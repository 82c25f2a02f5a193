// What every benchmark section reports: one figure, the reference it is compared with in the same run,
// the ratio between them and whether it meets its target (docs/performance.md, the table of figures).
import type { RunningStack, StackOptions } from '@shop/dev-stack';

export interface Measurement {
  /** In words: 'GET /api/products through the gateway, 32 connections'. */
  what: string;
  value: number;
  /** 'req/s', 'KB', 'ms', 'orders/s' ... */
  unit: string;
}

export interface Figure {
  /** Stable key in the JSON report: 'reads.gateway-vs-bare'. */
  id: string;
  /** The section it belongs to (a heading in the report). */
  section: string;
  measured: Measurement;
  reference: Measurement;
  /** measured.value / reference.value. */
  ratio: number;
  /** Whether a higher ratio is better (throughput) or a lower one (bytes, time). */
  better: 'higher' | 'lower';
  /** The target ratio (≥ for 'higher', ≤ for 'lower'). */
  target: number;
  pass: boolean;
  /** Anything a reader needs to trust the figure (settings, raw counts, errors). */
  notes?: string;
  /** The run that measured it (machine, date, settings): a report keeps figures of earlier runs. */
  run?: string;
  /** A figure no issue has set a target for yet: reported with its ratio, never a miss. */
  reportOnly?: boolean;
  /**
   * CPU per request (per order, per page) by part, µs, where the section measures it: what the regression
   * guard compares with the report of record (lib/regressions.ts).
   */
  cpuUs?: Record<string, number>;
  /** Each part's run-to-run noise measured in this run (the spread of two passes over their mean). */
  cpuNoise?: Record<string, number>;
}

/** Builds a figure from the two measurements and the target; the ratio and the verdict follow. */
export function figure(input: {
  id: string;
  section: string;
  measured: Measurement;
  reference: Measurement;
  better: 'higher' | 'lower';
  target: number;
  notes?: string;
  reportOnly?: boolean;
  cpuUs?: Record<string, number>;
  cpuNoise?: Record<string, number>;
}): Figure {
  const ratio = input.reference.value === 0 ? Number.NaN : input.measured.value / input.reference.value;
  const pass = input.better === 'higher' ? ratio >= input.target : ratio <= input.target;
  return { ...input, ratio, pass: input.reportOnly === true || (Number.isFinite(ratio) && pass) };
}

/** What the runner gives every section: one stack for the whole run, and the run's settings. */
export interface BenchContext {
  /** The whole shop on free ports, gateway rate limits and the users service's per-address limits raised. */
  stack: RunningStack;
  /** Another stack with the run's limits (e.g. `{ observability: true }`); the section stops it. */
  startStack(options?: Partial<StackOptions>): Promise<RunningStack>;
  /** Seconds per measured load phase (BENCH_DURATION_S, default 10). */
  durationS: number;
  /** Concurrent connections or buyers of the load phases (BENCH_CONNECTIONS, default 32). */
  connections: number;
  log(line: string): void;
}

/** One part of `npm run bench`, e.g. reads, orders, first load, LCP. */
export interface BenchSection {
  name: string;
  run(context: BenchContext): Promise<Figure[]>;
}

/** Where the hot paths' goals are written down, as a goal figure's reference names them. */
export const HOT_PATH_GOALS = "docs/performance.md, the hot paths' goals";

/**
 * A figure held to a goal set as a number (4 ms of CPU per order, 100 ms of blocking time): the
 * goal is its reference, so its ratio is ≤ 1 (or ≥ 1) when the goal is met.
 */
export function goalFigure(input: {
  id: string;
  section: string;
  measured: Measurement;
  /** The goal, and where it is written down (the hot paths' goals when not said). */
  goal: { value: number; source?: string };
  better: 'higher' | 'lower';
  notes?: string;
}): Figure {
  const { goal, ...rest } = input;
  return figure({
    ...rest,
    reference: {
      what: `the goal (${goal.source ?? HOT_PATH_GOALS})`,
      value: goal.value,
      unit: input.measured.unit,
    },
    target: 1,
  });
}
