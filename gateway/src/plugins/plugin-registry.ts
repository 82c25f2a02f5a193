import type { z } from 'zod';
import { correlationIdConfigSchema } from './correlation-id.plugin';
import { corsConfigSchema } from './cors.plugin';
import { rateLimitingConfigSchema } from './rate-limiting.plugin';
import { requestSizeLimitingConfigSchema } from './request-size-limiting.plugin';
import { responseTransformerConfigSchema } from './response-transformer.plugin';
import { openTelemetryConfigSchema } from '../telemetry/opentelemetry.plugin';
import { prometheusConfigSchema } from '../telemetry/prometheus.plugin';

/** The plugins the local gateway implements, each with the config schema it accepts. */
export const PLUGIN_CONFIG_SCHEMAS = {
  'correlation-id': correlationIdConfigSchema,
  cors: corsConfigSchema,
  'request-size-limiting': requestSizeLimitingConfigSchema,
  'rate-limiting': rateLimitingConfigSchema,
  'response-transformer': responseTransformerConfigSchema,
  opentelemetry: openTelemetryConfigSchema,
  prometheus: prometheusConfigSchema,
} as const;

/**
 * Plugins the local gateway accepts only as global ones: they observe every request from its first
 * byte (the trace starts before a route is chosen), so a route or service instance would mean another
 * tracer or registry per route, which this gateway does not implement.
 */
export const GLOBAL_ONLY_PLUGINS: ReadonlySet<string> = new Set(['opentelemetry', 'prometheus']);

export type PluginName = keyof typeof PLUGIN_CONFIG_SCHEMAS;
export type PluginConfigs = { [N in PluginName]: z.infer<(typeof PLUGIN_CONFIG_SCHEMAS)[N]> };

/** Where a plugin applies; the most specific instance of a plugin wins (route, then service, then global). */
export type PluginScope =
  | { readonly kind: 'global' }
  | { readonly kind: 'service'; readonly service: string }
  | { readonly kind: 'route'; readonly route: string };

/** One validated plugin entry of the file. */
export type PluginDeclaration = {
  [N in PluginName]: {
    readonly name: N;
    readonly scope: PluginScope;
    readonly enabled: boolean;
    readonly config: PluginConfigs[N];
  };
}[PluginName];

/** Whether the local gateway implements a plugin of this name. */
export function isImplementedPlugin(name: string): name is PluginName {
  return Object.hasOwn(PLUGIN_CONFIG_SCHEMAS, name);
}
