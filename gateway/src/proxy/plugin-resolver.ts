import type { GatewayConfig, GatewayRoute } from '../config/gateway-config';
import { CorrelationIdPlugin } from '../plugins/correlation-id.plugin';
import { CorsPlugin } from '../plugins/cors.plugin';
import type { PluginDeclaration, PluginName } from '../plugins/plugin-registry';
import { RateLimitingPlugin } from '../plugins/rate-limiting.plugin';
import { RequestSizeLimitingPlugin } from '../plugins/request-size-limiting.plugin';
import { ResponseTransformerPlugin } from '../plugins/response-transformer.plugin';
import { OpenTelemetryPlugin } from '../telemetry/opentelemetry.plugin';
import { PrometheusPlugin } from '../telemetry/prometheus.plugin';

/** The plugin instances that run for one request, in Kong's priority order of use. */
export interface ActivePlugins {
  readonly correlationId?: CorrelationIdPlugin;
  readonly cors?: CorsPlugin;
  readonly requestSizeLimiting?: RequestSizeLimitingPlugin;
  readonly rateLimiting?: RateLimitingPlugin;
  readonly responseTransformer?: ResponseTransformerPlugin;
  /** Global only: traces every request (telemetry/request-tracer.ts). */
  readonly openTelemetry?: OpenTelemetryPlugin;
  /** Global only: Kong's metrics per route (telemetry/gateway-metrics.ts). */
  readonly prometheus?: PrometheusPlugin;
}

const SPECIFICITY = { route: 2, service: 1, global: 0 } as const;

function appliesTo(declaration: PluginDeclaration, route: GatewayRoute | null): boolean {
  const { scope } = declaration;
  if (scope.kind === 'global') return true;
  if (!route) return false;
  return scope.kind === 'service' ? scope.service === route.service.name : scope.route === route.name;
}

/**
 * For each plugin name, the declaration that applies to `route` (or to requests matching no
 * route when null): Kong runs only the most specific enabled instance — route over service
 * over global.
 */
export function selectPluginDeclarations(
  declarations: readonly PluginDeclaration[],
  route: GatewayRoute | null,
): Map<PluginName, PluginDeclaration> {
  const chosen = new Map<PluginName, PluginDeclaration>();
  for (const declaration of declarations) {
    if (!declaration.enabled || !appliesTo(declaration, route)) continue;
    const current = chosen.get(declaration.name);
    if (!current || SPECIFICITY[declaration.scope.kind] > SPECIFICITY[current.scope.kind]) {
      chosen.set(declaration.name, declaration);
    }
  }
  return chosen;
}

/** Builds the plugin instances once and answers which of them run for a route. */
export class PluginSet {
  /** Plugins for requests that match no route (global ones only). */
  readonly global: ActivePlugins;
  private readonly byRoute = new Map<string, ActivePlugins>();
  private readonly instances = new Map<PluginDeclaration, PluginInstance>();

  constructor(
    config: Pick<GatewayConfig, 'routes' | 'plugins'>,
    private readonly rateLimitFactor: number,
    private readonly now?: () => number,
  ) {
    this.global = this.activate(selectPluginDeclarations(config.plugins, null));
    for (const route of config.routes) {
      this.byRoute.set(route.name, this.activate(selectPluginDeclarations(config.plugins, route)));
    }
  }

  /** The plugins that run for requests matched by `route`. */
  forRoute(route: GatewayRoute): ActivePlugins {
    return this.byRoute.get(route.name) ?? this.global;
  }

  private activate(selected: Map<PluginName, PluginDeclaration>): ActivePlugins {
    const active: { -readonly [K in keyof ActivePlugins]: ActivePlugins[K] } = {};
    for (const declaration of selected.values()) {
      const plugin = this.instanceOf(declaration);
      if (plugin instanceof CorrelationIdPlugin) active.correlationId = plugin;
      else if (plugin instanceof CorsPlugin) active.cors = plugin;
      else if (plugin instanceof RequestSizeLimitingPlugin) active.requestSizeLimiting = plugin;
      else if (plugin instanceof ResponseTransformerPlugin) active.responseTransformer = plugin;
      else if (plugin instanceof OpenTelemetryPlugin) active.openTelemetry = plugin;
      else if (plugin instanceof PrometheusPlugin) active.prometheus = plugin;
      else active.rateLimiting = plugin;
    }
    return active;
  }

  // One instance per declaration, so a service-wide rate limit counts across all its routes.
  private instanceOf(declaration: PluginDeclaration): PluginInstance {
    let instance = this.instances.get(declaration);
    if (!instance) {
      instance = instantiate(declaration, this.rateLimitFactor, this.now);
      this.instances.set(declaration, instance);
    }
    return instance;
  }
}

type PluginInstance =
  | CorrelationIdPlugin
  | CorsPlugin
  | RequestSizeLimitingPlugin
  | RateLimitingPlugin
  | ResponseTransformerPlugin
  | OpenTelemetryPlugin
  | PrometheusPlugin;

function instantiate(
  declaration: PluginDeclaration,
  rateLimitFactor: number,
  now?: () => number,
): PluginInstance {
  switch (declaration.name) {
    case 'correlation-id':
      return new CorrelationIdPlugin(declaration.config);
    case 'cors':
      return new CorsPlugin(declaration.config);
    case 'request-size-limiting':
      return new RequestSizeLimitingPlugin(declaration.config);
    case 'rate-limiting':
      return new RateLimitingPlugin(declaration.config, rateLimitFactor, now);
    case 'response-transformer':
      return new ResponseTransformerPlugin(declaration.config);
    case 'opentelemetry':
      return new OpenTelemetryPlugin(declaration.config);
    case 'prometheus':
      return new PrometheusPlugin(declaration.config);
  }
}
