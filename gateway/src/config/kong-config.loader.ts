import { readFileSync } from 'node:fs';
import { parseDocument } from 'yaml';
import type { z } from 'zod';
import {
  GLOBAL_ONLY_PLUGINS,
  isImplementedPlugin,
  PLUGIN_CONFIG_SCHEMAS,
  type PluginDeclaration,
  type PluginName,
  type PluginScope,
} from '../plugins/plugin-registry';
import type { GatewayConfig, GatewayRoute, GatewayService, GatewayUpstream } from './gateway-config';
import { kongFileSchema, type PluginEntry, type ServiceEntry } from './kong-config.schema';
import { parseTarget } from './upstream.schema';

/** The file asks for something the local gateway does not implement, or is not valid. */
export class GatewayConfigError extends Error {
  constructor(
    readonly source: string,
    readonly problems: readonly string[],
  ) {
    super(`${source} cannot be served by the local gateway:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'GatewayConfigError';
  }
}

type PathSegment = PropertyKey;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `services[0] (products).routes[1] (users-signin).plugins[0] (rate-limiting).config.policy` */
function describePath(raw: unknown, path: readonly PathSegment[]): string {
  let out = '';
  let node: unknown = raw;
  for (const segment of path) {
    if (typeof segment === 'number') {
      node = Array.isArray(node) ? node[segment] : undefined;
      const name = isRecord(node) && typeof node.name === 'string' ? ` (${node.name})` : '';
      out += `[${segment}]${name}`;
    } else {
      const key = String(segment);
      node = isRecord(node) ? node[key] : undefined;
      out += out ? `.${key}` : key;
    }
  }
  return out || '(file)';
}

function formatIssue(raw: unknown, prefix: readonly PathSegment[], issue: z.core.$ZodIssue): string {
  const path = [...prefix, ...issue.path];
  const where = describePath(raw, path);
  if (issue.code === 'unrecognized_keys') {
    const keys = issue.keys.map((key) => JSON.stringify(key)).join(', ');
    if (path.length === 0) return `top-level entity ${keys} is not implemented by the local gateway`;
    const last = path[path.length - 1];
    const what = last === 'config' ? 'option' : 'field';
    return `${where}: ${what} ${keys} is not implemented by the local gateway`;
  }
  return `${where}: ${issue.message}`;
}

function readYaml(text: string, source: string): unknown {
  const document = parseDocument(text, { uniqueKeys: true, prettyErrors: true });
  if (document.errors.length > 0) {
    throw new GatewayConfigError(
      source,
      document.errors.map((error) => `invalid YAML: ${error.message}`),
    );
  }
  return document.toJS();
}

function resolveService(entry: ServiceEntry): GatewayService {
  let host = entry.host ?? '';
  let port = entry.port ?? 80;
  let path = entry.path ?? null;
  if (entry.url !== undefined) {
    const url = new URL(entry.url);
    host = url.hostname;
    port = url.port ? Number(url.port) : 80;
    // `http://products:3001` and `http://products:3001/` both forward paths unchanged.
    path = url.pathname === '/' ? null : url.pathname;
  }
  return {
    name: entry.name,
    host,
    port,
    path,
    connectTimeoutMs: entry.connect_timeout,
    readTimeoutMs: entry.read_timeout,
    retries: entry.retries,
  };
}

function scopeKey(scope: PluginScope): string {
  if (scope.kind === 'global') return 'global';
  return scope.kind === 'service' ? `service ${scope.service}` : `route ${scope.route}`;
}

/**
 * Validates a Kong 3 declarative file against the subset the local gateway implements.
 * Throws {@link GatewayConfigError} listing every problem (unknown entity, field, plugin or option value).
 */
export function parseKongConfig(text: string, source = 'kong.yml'): GatewayConfig {
  const raw = readYaml(text, source);
  if (!isRecord(raw)) throw new GatewayConfigError(source, ['the file must be a YAML mapping']);

  const parsed = kongFileSchema.safeParse(raw);
  if (!parsed.success) {
    throw new GatewayConfigError(
      source,
      parsed.error.issues.map((issue) => formatIssue(raw, [], issue)),
    );
  }
  const file = parsed.data;
  const problems: string[] = [];
  const plugins: PluginDeclaration[] = [];
  const seenPlugins = new Set<string>();

  const addPlugins = (
    entries: readonly PluginEntry[],
    scope: PluginScope,
    at: readonly PathSegment[],
  ): void => {
    entries.forEach((entry, index) => {
      const path = [...at, 'plugins', index];
      // The schema has already refused unknown plugins and invalid configs.
      if (!isImplementedPlugin(entry.name)) return;
      const duplicateKey = `${scopeKey(scope)}/${entry.name}`;
      if (seenPlugins.has(duplicateKey)) {
        problems.push(
          `${describePath(raw, path)}: plugin ${entry.name} is configured twice on ${scopeKey(scope)}`,
        );
        return;
      }
      seenPlugins.add(duplicateKey);
      if (scope.kind !== 'global' && GLOBAL_ONLY_PLUGINS.has(entry.name)) {
        problems.push(
          `${describePath(raw, path)}: plugin ${entry.name} on a ${scope.kind} is not implemented by the local gateway (only as a global plugin)`,
        );
        return;
      }
      plugins.push(declarePlugin(entry.name, entry.config, scope, entry.enabled));
    });
  };

  addPlugins(file.plugins, { kind: 'global' }, []);

  const services: GatewayService[] = [];
  const routes: GatewayRoute[] = [];
  const serviceNames = new Set<string>();
  const routeNames = new Set<string>();
  file.services.forEach((serviceEntry, serviceIndex) => {
    const servicePath = ['services', serviceIndex];
    if (serviceNames.has(serviceEntry.name)) {
      problems.push(
        `${describePath(raw, servicePath)}: service name ${JSON.stringify(serviceEntry.name)} is used twice`,
      );
    }
    serviceNames.add(serviceEntry.name);
    const service = resolveService(serviceEntry);
    services.push(service);
    addPlugins(serviceEntry.plugins, { kind: 'service', service: service.name }, servicePath);

    serviceEntry.routes.forEach((routeEntry, routeIndex) => {
      const routePath = [...servicePath, 'routes', routeIndex];
      if (routeNames.has(routeEntry.name)) {
        problems.push(
          `${describePath(raw, routePath)}: route name ${JSON.stringify(routeEntry.name)} is used twice`,
        );
      }
      routeNames.add(routeEntry.name);
      routes.push({
        name: routeEntry.name,
        service,
        paths: routeEntry.paths ?? null,
        methods: routeEntry.methods ?? null,
        stripPath: routeEntry.strip_path,
        preserveHost: routeEntry.preserve_host,
      });
      addPlugins(routeEntry.plugins, { kind: 'route', route: routeEntry.name }, routePath);
    });
  });

  const upstreams: GatewayUpstream[] = [];
  file.upstreams.forEach((entry, index) => {
    const at = describePath(raw, ['upstreams', index]);
    if (upstreams.some((upstream) => upstream.name === entry.name)) {
      problems.push(`${at}: upstream name ${JSON.stringify(entry.name)} is used twice`);
    }
    const targets = entry.targets.map(({ target, weight }) => ({ ...parseTarget(target), weight }));
    targets.forEach(({ host, port }, targetIndex) => {
      const where = describePath(raw, ['upstreams', index, 'targets', targetIndex]);
      if (port < 1 || port > 65_535) problems.push(`${where}: port ${port} is not 1-65535`);
      if (targets.findIndex((other) => other.host === host && other.port === port) !== targetIndex) {
        problems.push(`${where}: target ${host}:${port} is listed twice`);
      }
    });
    upstreams.push({
      name: entry.name,
      algorithm: entry.algorithm,
      targets,
      healthchecks: entry.healthchecks,
    });
  });

  if (problems.length > 0) throw new GatewayConfigError(source, problems);
  return { services, routes, upstreams, plugins };
}

// Each branch keeps the config type tied to its plugin name; the config was validated by the schema.
function declarePlugin(
  name: PluginName,
  config: unknown,
  scope: PluginScope,
  enabled: boolean,
): PluginDeclaration {
  switch (name) {
    case 'correlation-id':
      return { name, scope, enabled, config: PLUGIN_CONFIG_SCHEMAS[name].parse(config) };
    case 'cors':
      return { name, scope, enabled, config: PLUGIN_CONFIG_SCHEMAS[name].parse(config) };
    case 'request-size-limiting':
      return { name, scope, enabled, config: PLUGIN_CONFIG_SCHEMAS[name].parse(config) };
    case 'rate-limiting':
      return { name, scope, enabled, config: PLUGIN_CONFIG_SCHEMAS[name].parse(config) };
    case 'response-transformer':
      return { name, scope, enabled, config: PLUGIN_CONFIG_SCHEMAS[name].parse(config) };
    case 'opentelemetry':
      return { name, scope, enabled, config: PLUGIN_CONFIG_SCHEMAS[name].parse(config) };
    case 'prometheus':
      return { name, scope, enabled, config: PLUGIN_CONFIG_SCHEMAS[name].parse(config) };
  }
}

/** Reads and validates a kong.yml file; see {@link parseKongConfig}. */
export function loadKongConfig(path: string): GatewayConfig {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new GatewayConfigError(path, [`cannot read the file: ${reason}`]);
  }
  return parseKongConfig(text, path);
}
