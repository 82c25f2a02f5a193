import { describe, expect, it } from 'vitest';
import type { GatewayRoute, GatewayService } from '../config/gateway-config';
import type { PluginDeclaration } from '../plugins/plugin-registry';
import { PluginSet, selectPluginDeclarations } from './plugin-resolver';

const service = (name: string): GatewayService => ({
  name,
  host: name,
  port: 80,
  path: null,
  connectTimeoutMs: 1000,
  readTimeoutMs: 1000,
  retries: 5,
});
const route = (name: string, of: GatewayService): GatewayRoute => ({
  name,
  service: of,
  paths: [`/${name}`],
  methods: null,
  stripPath: false,
  preserveHost: false,
});
const limit = (scope: PluginDeclaration['scope'], minute: number, enabled = true): PluginDeclaration => ({
  name: 'rate-limiting',
  scope,
  enabled,
  config: {
    minute,
    limit_by: 'ip',
    policy: 'local',
    fault_tolerant: true,
    hide_client_headers: false,
    error_code: 429,
    error_message: 'API rate limit exceeded',
  },
});

const users = service('users');
const products = service('products');
const signin = route('signin', users);
const profile = route('profile', users);
const catalogue = route('catalogue', products);

describe('selectPluginDeclarations', () => {
  const declarations = [
    limit({ kind: 'global' }, 300),
    limit({ kind: 'service', service: 'users' }, 100),
    limit({ kind: 'route', route: 'signin' }, 10),
  ];
  const minuteFor = (r: GatewayRoute | null): unknown => {
    const chosen = selectPluginDeclarations(declarations, r).get('rate-limiting');
    return chosen?.name === 'rate-limiting' ? chosen.config.minute : undefined;
  };

  it('applies the most specific instance: route over service over global', () => {
    expect(minuteFor(signin)).toBe(10);
    expect(minuteFor(profile)).toBe(100);
    expect(minuteFor(catalogue)).toBe(300);
    expect(minuteFor(null)).toBe(300);
  });

  it('skips disabled instances, falling back to a less specific one', () => {
    const chosen = selectPluginDeclarations(
      [limit({ kind: 'global' }, 300), limit({ kind: 'route', route: 'signin' }, 10, false)],
      signin,
    ).get('rate-limiting');
    expect(chosen?.scope.kind).toBe('global');
  });
});

describe('PluginSet', () => {
  it('shares one counter between the routes of a service-scoped rate limit', () => {
    const plugins = new PluginSet(
      {
        routes: [signin, profile, catalogue],
        plugins: [limit({ kind: 'service', service: 'users' }, 2)],
      },
      1,
    );
    expect(plugins.forRoute(signin).rateLimiting).toBe(plugins.forRoute(profile).rateLimiting);
    expect(plugins.forRoute(catalogue).rateLimiting).toBeUndefined();
    const limiter = plugins.forRoute(signin).rateLimiting;
    expect(limiter?.take('ip').allowed).toBe(true);
    expect(plugins.forRoute(profile).rateLimiting?.take('ip').allowed).toBe(true);
    expect(limiter?.take('ip').allowed).toBe(false);
  });

  it('multiplies limits by the rate-limit factor', () => {
    const plugins = new PluginSet({ routes: [signin], plugins: [limit({ kind: 'global' }, 10)] }, 3);
    expect(plugins.forRoute(signin).rateLimiting?.take('ip').headers['RateLimit-Limit']).toBe('30');
  });
});
