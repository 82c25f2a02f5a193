import { z } from 'zod';

/** Settings every service reads from its environment. */
export const baseServiceConfigSchema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  HOST: z.string().min(1).default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535),
  MONGO_URL: z
    .string()
    .regex(/^mongodb(\+srv)?:\/\/.+\/[^/?]+/, 'must be a mongodb:// URL that names a database'),
  NATS_URL: z.string().regex(/^nats:\/\/.+/, 'must be a nats:// URL (several may be given, comma-separated)'),
  /** Copies of the events stream (and so of its consumers) JetStream keeps: 3 on a three-node cluster. */
  NATS_STREAM_REPLICAS: z.coerce.number().int().min(1).max(5).default(1),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /**
   * Which requests get an access line (docs/observability.md, "Logs"): `problems`, those that failed, were
   * refused or were slow (the gateway writes one line for every request); `all`, every one.
   */
  ACCESS_LOG: z.enum(['problems', 'all']).default('problems'),
  /** A request that takes this long or longer gets an access line as slow. */
  SLOW_REQUEST_MS: z.coerce.number().int().min(1).default(500),
  NATS_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(3_000),
  BODY_LIMIT_BYTES: z.coerce.number().int().min(1_024).default(1_048_576),
  /**
   * Group-commit queues that write each item alone, at once (comma-separated queue names, `all` for every
   * one): a switch for measuring what batching saves (bench `group-commit`), not for running the shop.
   */
  GROUP_COMMIT_OFF: z
    .string()
    .default('')
    .transform((names) =>
      names
        .split(',')
        .map((name) => name.trim())
        .filter((name) => name !== ''),
    ),
  /** Where `/metrics` is served: by default PORT + 6000 (none when PORT is 0, as in tests); 0 = off. */
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  /**
   * Where the fault flags come from (docs/observability.md, "Fault flags"): `grpc://host:port`, a flagd sync
   * service (the data service's, `FLAGS_SYNC_PORT`), or `file:///path` to a flag set in flagd's format.
   * Without it every flag is off.
   */
  FLAGS_SOURCE: z
    .string()
    .regex(/^(grpc:\/\/[^/]+:\d+|file:\/\/\/.+)$/, 'must be grpc://host:port or file:///path')
    .optional(),
});

/** The port of the service's metrics listener, or undefined for none (see METRICS_PORT). */
export function metricsPortOf(config: Pick<BaseServiceConfig, 'PORT' | 'METRICS_PORT'>): number | undefined {
  const port = config.METRICS_PORT ?? (config.PORT === 0 ? 0 : config.PORT + 6000);
  return port > 0 && port <= 65535 ? port : undefined;
}

export type BaseServiceConfig = z.infer<typeof baseServiceConfigSchema>;

/** Thrown when the environment does not describe a runnable service; its message names every bad variable. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

// Values that may carry credentials (keys, passwords, URLs with user:password@) are never echoed:
// start-up errors end up in logs that many people read.
const SECRET_VARIABLE = /KEY|PASSWORD|SECRET|TOKEN|_URL$/;

/** Parses the environment with a schema, or throws a ConfigError listing each bad or missing variable. */
export function loadConfig<TSchema extends z.ZodType>(
  schema: TSchema,
  env: Record<string, string | undefined> = process.env,
): z.infer<TSchema> {
  const parsed = schema.safeParse(env);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => {
    const name = issue.path.join('.') || '(environment)';
    const value = typeof issue.path[0] === 'string' ? env[issue.path[0]] : undefined;
    return value === undefined || SECRET_VARIABLE.test(name)
      ? `${name}: ${issue.message}`
      : `${name}=${JSON.stringify(value)}: ${issue.message}`;
  });
  throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
}
