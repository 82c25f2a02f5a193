import { z } from 'zod';

// Kong 3's `upstreams` entity, in the subset the local gateway implements, with Kong's defaults
// (kong/db/schema/entities/upstreams.lua). Every object is strict: anything else is refused.

const NOT_IMPLEMENTED = 'not implemented by the local gateway';

const seconds = z.number().min(0).max(65_535);
const counter = z.number().int().min(0).max(255);
const httpStatuses = z.array(z.number().int().min(100).max(999));

const onlyHttp = z
  .literal('http', {
    error: (issue) => `health check type ${JSON.stringify(issue.input)} is ${NOT_IMPLEMENTED} (only "http")`,
  })
  .default('http');

const activeChecks = z
  .strictObject({
    type: onlyHttp,
    http_path: z.string().startsWith('/').default('/'),
    timeout: seconds.default(1),
    concurrency: z
      .number()
      .int()
      .min(1)
      .max(2 ** 31)
      .default(10),
    healthy: z
      .strictObject({
        interval: seconds.default(0),
        http_statuses: httpStatuses.default([200, 302]),
        successes: counter.default(0),
      })
      .prefault({}),
    unhealthy: z
      .strictObject({
        interval: seconds.default(0),
        http_statuses: httpStatuses.default([429, 404, 500, 501, 502, 503, 504, 505]),
        tcp_failures: counter.default(0),
        timeouts: counter.default(0),
        http_failures: counter.default(0),
      })
      .prefault({}),
  })
  .prefault({});

const passiveChecks = z
  .strictObject({
    type: onlyHttp,
    healthy: z
      .strictObject({
        http_statuses: httpStatuses.default([
          200, 201, 202, 203, 204, 205, 206, 207, 208, 226, 300, 301, 302, 303, 304, 305, 306, 307, 308,
        ]),
        successes: counter.default(0),
      })
      .prefault({}),
    unhealthy: z
      .strictObject({
        http_statuses: httpStatuses.default([429, 500, 503]),
        tcp_failures: counter.default(0),
        timeouts: counter.default(0),
        http_failures: counter.default(0),
      })
      .prefault({}),
  })
  .prefault({});

/** `healthchecks` of an upstream; every threshold 0 (Kong's default) turns that check off. */
export const healthchecksSchema = z
  .strictObject({
    active: activeChecks,
    passive: passiveChecks,
    threshold: z.number().min(0).max(100).default(0),
  })
  .prefault({});
export type Healthchecks = z.infer<typeof healthchecksSchema>;

const HOST_PORT = /^(?<host>[A-Za-z0-9._-]+|\[[0-9A-Fa-f:.]+\])(?::(?<port>\d{1,5}))?$/;

/** A target: `host[:port]` (Kong's default port is 8000) and a weight (0 takes it out of the balance). */
export const targetSchema = z.strictObject({
  target: z.string().regex(HOST_PORT, 'a target is host or host:port'),
  weight: z.number().int().min(0).max(65_535).default(100),
  id: z.string().min(1).optional(),
  tags: z.array(z.string()).optional(),
});

/** An upstream: a name that service hosts may name, balanced across its targets. */
export const upstreamSchema = z.strictObject({
  name: z
    .string()
    .regex(/^[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*$/, {
      message: 'an upstream name is a hostname, without port',
    }),
  id: z.string().min(1).optional(),
  tags: z.array(z.string()).optional(),
  algorithm: z
    .literal('round-robin', {
      error: (issue) => `algorithm ${JSON.stringify(issue.input)} is ${NOT_IMPLEMENTED} (only "round-robin")`,
    })
    .default('round-robin'),
  // The size of Kong's balancer wheel: it changes nothing about which target is next in round-robin.
  slots: z.number().int().min(10).max(65_536).default(10_000),
  healthchecks: healthchecksSchema,
  targets: z.array(targetSchema).default([]),
});
export type UpstreamEntry = z.infer<typeof upstreamSchema>;

/** `host[:port]` of a target, with Kong's default port 8000. */
export function parseTarget(target: string): { host: string; port: number } {
  const groups = HOST_PORT.exec(target)?.groups ?? {};
  const host = groups.host ?? target;
  return {
    host: host.startsWith('[') ? host.slice(1, -1) : host,
    port: groups.port ? Number(groups.port) : 8000,
  };
}
