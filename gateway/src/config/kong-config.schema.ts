import { z } from 'zod';
import { isImplementedPlugin, PLUGIN_CONFIG_SCHEMAS } from '../plugins/plugin-registry';
import { upstreamSchema } from './upstream.schema';

// The subset of Kong 3's declarative format that the local gateway implements. Every object is
// strict: a field Kong knows but this gateway does not implement is an error, never ignored.

const NOT_IMPLEMENTED = 'not implemented by the local gateway';

const tags = z.array(z.string()).optional();
const id = z.string().min(1).optional();

// The local gateway listens on plain HTTP only; a plugin or route limited to other protocols
// would behave differently here than in Kong.
const protocols = z
  .array(
    z.enum(['http', 'https'], {
      error: (issue) => `protocol ${JSON.stringify(issue.input)} is ${NOT_IMPLEMENTED}`,
    }),
  )
  .min(1)
  .refine((list) => list.includes('http'), {
    message: `protocols must include "http" (the local gateway serves plain HTTP)`,
  })
  .optional();

/** A plugin entry; its `config` is checked against the named plugin's own schema. */
export const pluginEntrySchema = z
  .strictObject({
    name: z.string().min(1),
    id,
    tags,
    instance_name: z.string().min(1).optional(),
    enabled: z.boolean().default(true),
    protocols,
    config: z.record(z.string(), z.unknown()).default({}),
  })
  .superRefine((entry, ctx) => {
    if (!isImplementedPlugin(entry.name)) {
      ctx.addIssue({
        code: 'custom',
        path: ['name'],
        message: `plugin ${JSON.stringify(entry.name)} is ${NOT_IMPLEMENTED} (implemented: ${Object.keys(PLUGIN_CONFIG_SCHEMAS).join(', ')})`,
      });
      return;
    }
    const result = PLUGIN_CONFIG_SCHEMAS[entry.name].safeParse(entry.config);
    if (result.success) return;
    for (const issue of result.error.issues) {
      const message =
        issue.code === 'unrecognized_keys'
          ? `option ${issue.keys.map((key) => JSON.stringify(key)).join(', ')} of plugin ${entry.name} is ${NOT_IMPLEMENTED}`
          : issue.message;
      ctx.addIssue({ code: 'custom', path: ['config', ...issue.path], message });
    }
  });
export type PluginEntry = z.infer<typeof pluginEntrySchema>;

const HTTP_METHOD = /^[A-Z]+$/;

const routePath = z
  .string()
  .min(1)
  .refine((path) => !path.startsWith('~'), { message: `regex paths are ${NOT_IMPLEMENTED}` })
  .refine((path) => path.startsWith('/'), { message: 'a path must start with "/"' });

/** A route nested in a service (top-level routes are not part of the implemented subset). */
export const routeSchema = z
  .strictObject({
    name: z.string().min(1, 'every route needs a name (logs and errors use it)'),
    id,
    tags,
    paths: z.array(routePath).min(1).optional(),
    methods: z
      .array(z.string().regex(HTTP_METHOD, 'methods are upper-case HTTP method names'))
      .min(1)
      .optional(),
    strip_path: z.boolean().default(true),
    preserve_host: z.boolean().default(false),
    // Kong buffers an answer before passing it on unless this is false (a streamed page needs it false);
    // this gateway always passes an answer on as it arrives, so both values serve the same here.
    response_buffering: z.boolean().default(true),
    protocols,
    path_handling: z
      .literal('v0', {
        error: (issue) => `path_handling ${JSON.stringify(issue.input)} is ${NOT_IMPLEMENTED} (only "v0")`,
      })
      .default('v0'),
    plugins: z.array(pluginEntrySchema).default([]),
  })
  .refine((route) => route.paths !== undefined || route.methods !== undefined, {
    message: 'a route needs paths or methods',
  });
export type RouteEntry = z.infer<typeof routeSchema>;

const timeout = z.number().int().min(1).max(2_147_483_646);

/** A service: either `url`, or `protocol`/`host`/`port`/`path`. */
export const serviceSchema = z
  .strictObject({
    name: z.string().min(1),
    id,
    tags,
    url: z.string().min(1).optional(),
    protocol: z
      .literal('http', {
        error: (issue) =>
          `service protocol ${JSON.stringify(issue.input)} is ${NOT_IMPLEMENTED} (only "http")`,
      })
      .optional(),
    host: z.string().min(1).optional(),
    port: z.number().int().min(1).max(65_535).optional(),
    path: z.string().startsWith('/').optional(),
    connect_timeout: timeout.default(60_000),
    read_timeout: timeout.default(60_000),
    // Kong's retries: further tries, on the next target, of a request whose connection failed or timed out.
    retries: z.number().int().min(0).max(32_767).default(5),
    routes: z.array(routeSchema).default([]),
    plugins: z.array(pluginEntrySchema).default([]),
  })
  .superRefine((service, ctx) => {
    const parts = (['protocol', 'host', 'port', 'path'] as const).filter((key) => service[key] !== undefined);
    if (service.url !== undefined && parts.length > 0) {
      ctx.addIssue({ code: 'custom', message: `use either url or ${parts.join('/')}, not both` });
    }
    if (service.url === undefined && service.host === undefined) {
      ctx.addIssue({ code: 'custom', message: 'a service needs url or host' });
    }
    if (service.url !== undefined) {
      const problem = checkServiceUrl(service.url);
      if (problem) ctx.addIssue({ code: 'custom', path: ['url'], message: problem });
    }
  });
export type ServiceEntry = z.infer<typeof serviceSchema>;

function checkServiceUrl(raw: string): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return `${JSON.stringify(raw)} is not a URL`;
  }
  if (url.protocol !== 'http:')
    return `service protocol ${JSON.stringify(url.protocol.slice(0, -1))} is ${NOT_IMPLEMENTED} (only "http")`;
  if (url.username || url.password || url.search || url.hash)
    return 'a service url has no credentials, query or fragment';
  return undefined;
}

/** The whole declarative file. */
export const kongFileSchema = z.strictObject({
  _format_version: z.literal('3.0', {
    error: (issue) =>
      `_format_version must be "3.0" (Kong 3 declarative), got ${JSON.stringify(issue.input)}`,
  }),
  services: z.array(serviceSchema).default([]),
  upstreams: z.array(upstreamSchema).default([]),
  plugins: z.array(pluginEntrySchema).default([]),
});
export type KongFile = z.infer<typeof kongFileSchema>;
