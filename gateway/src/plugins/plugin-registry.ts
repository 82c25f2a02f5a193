import type { z } from 'zod';
import { correlationIdConfigSchema } from './correlation-id.plugin';
import { corsConfigSchema } from './cors.plugin';
import { rateLimitingConfigSchema } from './rate-limiting.plugin';
import { requestSizeLimitingConfigSchema } from './request-size-limiting.plugin';

/** The plugins the local gateway implements, each with the config schema it accepts. */
export const PLUGIN_CONFIG_SCHEMAS = {
  'correlation-id': correlationIdConfigSchema,
  cors: corsConfigSchema,
  'request-size-limiting': requestSizeLimitingConfigSchema,
  'rate-limiting': rateLimitingConfigSchema,
} as const;

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
