import { z } from 'zod';
import { FixedWindowRateLimiter, type RateLimitDecision, type RateLimits } from './rate-limiter';

const NOT_IMPLEMENTED = 'is not implemented by the local gateway';
const limit = z.number().positive().optional();

/** Kong's `rate-limiting` config, limited to `policy: local` and `limit_by: ip`. */
export const rateLimitingConfigSchema = z
  .strictObject({
    second: limit,
    minute: limit,
    hour: limit,
    day: limit,
    limit_by: z.literal('ip', {
      error: (issue) =>
        issue.input === undefined
          ? `limit_by is required here: Kong's default "consumer" ${NOT_IMPLEMENTED}; set limit_by: ip`
          : `limit_by ${JSON.stringify(issue.input)} ${NOT_IMPLEMENTED} (only "ip")`,
    }),
    policy: z
      .literal('local', {
        error: (issue) => `policy ${JSON.stringify(issue.input)} ${NOT_IMPLEMENTED} (only "local")`,
      })
      .default('local'),
    fault_tolerant: z.boolean().default(true),
    hide_client_headers: z.boolean().default(false),
    error_code: z.number().int().min(400).max(599).default(429),
    error_message: z.string().default('API rate limit exceeded'),
  })
  .superRefine((config, ctx) => {
    const periods = (['second', 'minute', 'hour', 'day'] as const).filter(
      (period) => config[period] !== undefined,
    );
    if (periods.length === 0) {
      ctx.addIssue({ code: 'custom', message: 'set at least one of second, minute, hour, day' });
    }
    // Kong refuses a longer window with a lower limit than a shorter one.
    periods.forEach((shorter, index) => {
      for (const longer of periods.slice(index + 1)) {
        if ((config[longer] ?? 0) < (config[shorter] ?? 0)) {
          ctx.addIssue({
            code: 'custom',
            path: [longer],
            message: `the limit for ${longer} (${config[longer]}) cannot be lower than the limit for ${shorter} (${config[shorter]})`,
          });
        }
      }
    });
  });
export type RateLimitingConfig = z.infer<typeof rateLimitingConfigSchema>;

/** Runtime of one `rate-limiting` plugin instance: counters are per instance, as in Kong. */
export class RateLimitingPlugin {
  private readonly limiter: FixedWindowRateLimiter;

  constructor(
    private readonly config: RateLimitingConfig,
    factor: number,
    now?: () => number,
  ) {
    const scaled: RateLimits = {};
    for (const period of ['second', 'minute', 'hour', 'day'] as const) {
      const value = config[period];
      if (value !== undefined) scaled[period] = Math.max(1, Math.round(value * factor));
    }
    this.limiter = new FixedWindowRateLimiter(scaled, now);
  }

  /** Counts a request from `clientIp`. */
  take(clientIp: string): RateLimitDecision {
    return this.limiter.take(clientIp);
  }

  get hideClientHeaders(): boolean {
    return this.config.hide_client_headers;
  }

  get errorCode(): number {
    return this.config.error_code;
  }

  get errorMessage(): string {
    return this.config.error_message;
  }
}
