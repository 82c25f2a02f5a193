import type { PluginDeclaration } from '../plugins/plugin-registry';
import type { Healthchecks } from './upstream.schema';

/** A Kong service after validation. */
export interface GatewayService {
  readonly name: string;
  readonly host: string;
  readonly port: number;
  /** The service path, or null when its URL has none (Kong then uses `/`). */
  readonly path: string | null;
  readonly connectTimeoutMs: number;
  readonly readTimeoutMs: number;
  /** Further tries after a failed connection or timeout (Kong's `retries`, default 5). */
  readonly retries: number;
}

/** A target of an upstream: `host:port` as the file names it, and its weight. */
export interface GatewayTarget {
  readonly host: string;
  readonly port: number;
  readonly weight: number;
}

/** A Kong upstream after validation: services whose host is its name are balanced across its targets. */
export interface GatewayUpstream {
  readonly name: string;
  readonly algorithm: 'round-robin';
  readonly targets: readonly GatewayTarget[];
  /** Kong's `healthchecks`, every default filled in. */
  readonly healthchecks: Healthchecks;
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
  readonly upstreams: readonly GatewayUpstream[];
  readonly plugins: readonly PluginDeclaration[];
}
