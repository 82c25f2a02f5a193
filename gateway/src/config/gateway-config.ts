import type { PluginDeclaration } from '../plugins/plugin-registry';

/** A Kong service after validation. */
export interface GatewayService {
  readonly name: string;
  readonly host: string;
  readonly port: number;
  /** The service path, or null when its URL has none (Kong then uses `/`). */
  readonly path: string | null;
  readonly connectTimeoutMs: number;
  readonly readTimeoutMs: number;
}

/** A Kong route after validation, linked to its service. */
export interface GatewayRoute {
  readonly name: string;
  readonly service: GatewayService;
  readonly paths: readonly string[] | null;
  readonly methods: readonly string[] | null;
  readonly stripPath: boolean;
  readonly preserveHost: boolean;
}

/** Everything the gateway serves, read from one kong.yml. */
export interface GatewayConfig {
  readonly services: readonly GatewayService[];
  readonly routes: readonly GatewayRoute[];
  readonly plugins: readonly PluginDeclaration[];
}
