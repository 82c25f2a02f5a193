import { resolve } from 'node:path';
import { z } from 'zod';

/** A host:port the gateway connects to instead of a service's DNS name. */
export interface UpstreamAddress {
  readonly host: string;
  readonly port: number;
}

/** A bad environment variable or start option. */
export class GatewayEnvError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`the local gateway cannot start:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'GatewayEnvError';
  }
}

const ADDRESS = /^(?<host>\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+):(?<port>\d{1,5})$/;

/** Parses `host:port` (IPv6 in brackets); returns undefined when malformed. */
export function parseUpstreamAddress(value: string): UpstreamAddress | undefined {
  const match = ADDRESS.exec(value.trim());
  const host = match?.groups?.host;
  const port = Number(match?.groups?.port);
  if (!host || !Number.isInteger(port) || port < 1 || port > 65_535) return undefined;
  return { host: host.startsWith('[') ? host.slice(1, -1) : host, port };
}

/**
 * Parses `GATEWAY_UPSTREAMS` (`products=127.0.0.1:41234,products=127.0.0.1:41235,shell=127.0.0.1:40001`)
 * into host → addresses: a host listed several times has several replicas.
 */
export function parseUpstreamList(value: string): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  const problems: string[] = [];
  for (const entry of value
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)) {
    const equals = entry.indexOf('=');
    const name = equals > 0 ? entry.slice(0, equals).trim() : '';
    const address = equals > 0 ? entry.slice(equals + 1).trim() : '';
    if (!name || !parseUpstreamAddress(address)) {
      problems.push(`GATEWAY_UPSTREAMS entry ${JSON.stringify(entry)} must look like name=host:port`);
    } else if (out[name]?.includes(address)) {
      problems.push(`GATEWAY_UPSTREAMS lists ${name}=${address} twice`);
    } else {
      (out[name] ??= []).push(address);
    }
  }
  if (problems.length > 0) throw new GatewayEnvError(problems);
  return out;
}

const emptyAsUnset = (value: unknown): unknown => (value === '' ? undefined : value);

const portVariable = (message: string, defaultPort: number) =>
  z.preprocess(
    emptyAsUnset,
    z
      .string()
      .regex(/^\d{1,5}$/, message)
      .transform(Number)
      .refine((port) => port <= 65_535, message)
      .default(defaultPort),
  );

const envSchema = z.object({
  GATEWAY_CONFIG: z.preprocess(emptyAsUnset, z.string().optional()),
  GATEWAY_PORT: portVariable('GATEWAY_PORT must be a port number (0-65535)', 8000),
  GATEWAY_STATUS_PORT: portVariable(
    'GATEWAY_STATUS_PORT must be a port number (1-65535, or 0 for none)',
    8100,
  ),
  GATEWAY_HOST: z.preprocess(emptyAsUnset, z.string().min(1).default('0.0.0.0')),
  GATEWAY_RATE_LIMIT_FACTOR: z.preprocess(
    emptyAsUnset,
    z
      .string()
      .regex(/^\d+(\.\d+)?$/, 'GATEWAY_RATE_LIMIT_FACTOR must be a positive number')
      .transform(Number)
      .refine((factor) => factor > 0, 'GATEWAY_RATE_LIMIT_FACTOR must be a positive number')
      .default(1),
  ),
  LOG_LEVEL: z.preprocess(
    emptyAsUnset,
    z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ),
});

/** The gateway's settings from the environment. */
export interface GatewayEnv {
  readonly configPath: string;
  readonly port: number;
  /** The status listener's port (`/metrics`), or null for none (GATEWAY_STATUS_PORT=0). */
  readonly statusPort: number | null;
  readonly host: string;
  /** Host → addresses (several: replicas). */
  readonly upstreams: Record<string, string[]>;
  readonly rateLimitFactor: number;
  readonly logLevel: string;
}

/** Reads and validates the gateway's environment variables; `defaultConfigPath` is `<gateway>/kong.yml`. */
export function parseGatewayEnv(env: NodeJS.ProcessEnv, defaultConfigPath: string): GatewayEnv {
  const parsed = envSchema.safeParse(env);
  const problems = parsed.success
    ? []
    : parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
  let upstreams: Record<string, string[]> = {};
  try {
    upstreams = parseUpstreamList(typeof env.GATEWAY_UPSTREAMS === 'string' ? env.GATEWAY_UPSTREAMS : '');
  } catch (error) {
    if (!(error instanceof GatewayEnvError)) throw error;
    problems.push(...error.problems);
  }
  if (!parsed.success || problems.length > 0) throw new GatewayEnvError(problems);
  const values = parsed.data;
  return {
    configPath: resolve(values.GATEWAY_CONFIG ?? defaultConfigPath),
    port: values.GATEWAY_PORT,
    statusPort: values.GATEWAY_STATUS_PORT === 0 ? null : values.GATEWAY_STATUS_PORT,
    host: values.GATEWAY_HOST,
    upstreams,
    rateLimitFactor: values.GATEWAY_RATE_LIMIT_FACTOR,
    logLevel: values.LOG_LEVEL,
  };
}
