/** The rate-limiting windows the local gateway implements. */
export const RATE_LIMIT_PERIODS = ['second', 'minute', 'hour', 'day'] as const;
export type RateLimitPeriod = (typeof RATE_LIMIT_PERIODS)[number];

const PERIOD_SECONDS: Record<RateLimitPeriod, number> = { second: 1, minute: 60, hour: 3600, day: 86_400 };
const PERIOD_TITLE: Record<RateLimitPeriod, string> = {
  second: 'Second',
  minute: 'Minute',
  hour: 'Hour',
  day: 'Day',
};

export type RateLimits = Partial<Record<RateLimitPeriod, number>>;

/** The verdict for one request, with the headers Kong would send. */
export interface RateLimitDecision {
  readonly allowed: boolean;
  /** `X-RateLimit-*-<Period>` and `RateLimit-*` headers, plus `Retry-After` when refused. */
  readonly headers: Readonly<Record<string, string>>;
  /** Seconds until the most restrictive window resets. */
  readonly reset: number;
}

interface Window {
  start: number;
  count: number;
}

/**
 * Fixed-window counters per identifier, aligned to UTC like Kong's `local` policy: a request is
 * refused when any window is used up, and a refused request does not count.
 */
export class FixedWindowRateLimiter {
  private readonly limits: readonly (readonly [RateLimitPeriod, number])[];
  private readonly windows = new Map<string, Window>();
  private nextSweep = 0;

  constructor(
    limits: RateLimits,
    private readonly now: () => number = Date.now,
  ) {
    this.limits = RATE_LIMIT_PERIODS.flatMap((period) => {
      const limit = limits[period];
      return limit === undefined ? [] : [[period, limit] as const];
    });
    if (this.limits.length === 0) throw new Error('a rate limiter needs at least one period limit');
  }

  /** Counts one request for `identifier` (unless refused) and says whether it may pass. */
  take(identifier: string): RateLimitDecision {
    const nowMs = this.now();
    this.sweep(nowMs);

    const usage = this.limits.map(([period, limit]) => {
      const periodMs = PERIOD_SECONDS[period] * 1000;
      const start = Math.floor(nowMs / periodMs) * periodMs;
      const key = `${period}\u0000${identifier}`;
      const window = this.windows.get(key);
      const used = window && window.start === start ? window.count : 0;
      return { period, limit, start, key, remaining: limit - used };
    });

    // With several exhausted windows, report the longest one: that is when a retry can succeed.
    let stop: RateLimitPeriod | undefined;
    for (const entry of usage) if (entry.remaining <= 0) stop = entry.period;

    const headers: Record<string, string> = {};
    let chosen: { limit: number; remaining: number; seconds: number; reset: number } | undefined;
    for (const entry of usage) {
      const remaining = Math.max(
        0,
        stop === undefined || stop === entry.period ? entry.remaining - 1 : entry.remaining,
      );
      const seconds = PERIOD_SECONDS[entry.period];
      if (
        !chosen ||
        remaining < chosen.remaining ||
        (remaining === chosen.remaining && seconds > chosen.seconds)
      ) {
        const reset = Math.max(1, seconds - Math.floor((nowMs - entry.start) / 1000));
        chosen = { limit: entry.limit, remaining, seconds, reset };
      }
      headers[`X-RateLimit-Limit-${PERIOD_TITLE[entry.period]}`] = String(entry.limit);
      headers[`X-RateLimit-Remaining-${PERIOD_TITLE[entry.period]}`] = String(remaining);
    }
    // The constructor refuses an empty set of limits, so a summary always exists.
    if (!chosen) throw new Error('rate limiter has no limits');
    const summary = chosen;
    headers['RateLimit-Limit'] = String(summary.limit);
    headers['RateLimit-Remaining'] = String(summary.remaining);
    headers['RateLimit-Reset'] = String(summary.reset);

    if (stop !== undefined) {
      headers['Retry-After'] = String(summary.reset);
      return { allowed: false, headers, reset: summary.reset };
    }

    for (const entry of usage) {
      const window = this.windows.get(entry.key);
      if (window && window.start === entry.start) window.count += 1;
      else this.windows.set(entry.key, { start: entry.start, count: 1 });
    }
    return { allowed: true, headers, reset: summary.reset };
  }

  /** How many (identifier, period) windows are held in memory. */
  get size(): number {
    return this.windows.size;
  }

  // Expired windows are dropped in batches so memory follows the number of recent clients.
  private sweep(nowMs: number): void {
    if (nowMs < this.nextSweep) return;
    this.nextSweep = nowMs + 10_000;
    for (const [key, window] of this.windows) {
      const period = key.slice(0, key.indexOf('\u0000')) as RateLimitPeriod;
      if (window.start + PERIOD_SECONDS[period] * 1000 <= nowMs) this.windows.delete(key);
    }
  }
}
