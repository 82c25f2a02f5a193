import { describe, expect, it } from 'vitest';
import { GatewayConfigError, parseKongConfig } from './kong-config.loader';

const problemsOf = (yaml: string): readonly string[] => {
  try {
    parseKongConfig(yaml);
  } catch (error) {
    if (error instanceof GatewayConfigError) return error.problems;
    throw error;
  }
  throw new Error('expected the file to be refused');
};

const withRoutePlugin = (plugin: string): string => `
_format_version: "3.0"
services:
  - name: users
    url: http://users:3003
    routes:
      - name: users-api
        paths: [/api/users]
        plugins:
${plugin
  .trim()
  .split('\n')
  .map((line) => `          ${line}`)
  .join('\n')}
`;

describe('parseKongConfig', () => {
  it('reads services, routes with Kong defaults, and plugins with their scope', () => {
    const config = parseKongConfig(`
_format_version: "3.0"
services:
  - name: media
    url: http://media:3006/base
    routes:
      - name: media-api
        paths: [/api/media]
        plugins:
          - name: request-size-limiting
            config: { allowed_payload_size: 4 }
plugins:
  - name: correlation-id
`);
    expect(config.services[0]).toMatchObject({ name: 'media', host: 'media', port: 3006, path: '/base' });
    expect(config.routes[0]).toMatchObject({
      name: 'media-api',
      stripPath: true,
      preserveHost: false,
      methods: null,
    });
    expect(config.plugins).toEqual([
      {
        name: 'correlation-id',
        scope: { kind: 'global' },
        enabled: true,
        config: { header_name: 'Kong-Request-ID', generator: 'uuid#counter', echo_downstream: false },
      },
      {
        name: 'request-size-limiting',
        scope: { kind: 'route', route: 'media-api' },
        enabled: true,
        config: { allowed_payload_size: 4, size_unit: 'megabytes', require_content_length: false },
      },
    ]);
  });

  it('refuses an unknown top-level entity', () => {
    expect(problemsOf('_format_version: "3.0"\nconsumers: []\n')).toEqual([
      'top-level entity "consumers" is not implemented by the local gateway',
    ]);
  });

  it('refuses an unknown plugin, naming where it is', () => {
    expect(problemsOf(withRoutePlugin('- name: key-auth'))).toEqual([
      expect.stringMatching(
        /^services\[0\] \(users\)\.routes\[0\] \(users-api\)\.plugins\[0\] \(key-auth\)\.name: plugin "key-auth" is not implemented/,
      ),
    ]);
  });

  it('refuses the redis policy and options it does not implement', () => {
    const problems = problemsOf(
      withRoutePlugin(
        '- name: rate-limiting\n  config: { minute: 5, limit_by: ip, policy: redis, redis_host: cache }',
      ),
    );
    expect(problems).toContainEqual(
      expect.stringContaining('policy "redis" is not implemented by the local gateway'),
    );
    expect(problems).toContainEqual(
      expect.stringContaining('option "redis_host" of plugin rate-limiting is not implemented'),
    );
  });

  it("refuses Kong's default limit_by (consumer) instead of silently limiting by ip", () => {
    expect(problemsOf(withRoutePlugin('- name: rate-limiting\n  config: { minute: 5 }'))).toEqual([
      expect.stringContaining('limit_by is required here'),
    ]);
  });

  it('refuses limits that Kong itself refuses', () => {
    expect(
      problemsOf(withRoutePlugin('- name: rate-limiting\n  config: { minute: 50, hour: 10, limit_by: ip }')),
    ).toEqual([
      expect.stringContaining('the limit for hour (10) cannot be lower than the limit for minute (50)'),
    ]);
  });

  it('refuses unknown fields, regex paths, non-http services and unknown option values', () => {
    const problems = problemsOf(`
_format_version: "3.0"
services:
  - name: a
    url: https://a:443
    write_timeout: 5000
    routes:
      - name: r
        paths: ["~/api/(?<x>.*)"]
        hosts: [shop.example]
plugins:
  - name: correlation-id
    config: { generator: tracker }
  - name: cors
    config: { origins: ["https://.*\\\\.example"] }
`);
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringContaining('field "write_timeout" is not implemented'),
        expect.stringContaining('field "hosts" is not implemented'),
        expect.stringContaining('regex paths are not implemented'),
        expect.stringContaining('service protocol "https" is not implemented'),
        expect.stringContaining('generator "tracker" is not implemented'),
        expect.stringContaining('regex origins are not implemented'),
      ]),
    );
  });

  it('refuses duplicate names and a plugin configured twice on one scope', () => {
    const problems = problemsOf(`
_format_version: "3.0"
services:
  - name: a
    url: http://a:1
    routes: [{ name: r, paths: [/a] }]
  - name: a
    url: http://b:1
    routes: [{ name: r, paths: [/b] }]
plugins:
  - name: correlation-id
  - name: correlation-id
`);
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringContaining('service name "a" is used twice'),
        expect.stringContaining('route name "r" is used twice'),
        expect.stringContaining('plugin correlation-id is configured twice on global'),
      ]),
    );
  });

  it('refuses a wrong format version and invalid YAML', () => {
    expect(problemsOf('_format_version: "1.1"\n')).toEqual([
      expect.stringContaining('_format_version must be "3.0"'),
    ]);
    expect(problemsOf('_format_version: "3.0"\nservices: [\n')).toEqual([
      expect.stringContaining('invalid YAML'),
    ]);
  });
});

describe('upstreams', () => {
  it('reads targets and health checks with Kong defaults, and the service retries', () => {
    const config = parseKongConfig(`
_format_version: "3.0"
services:
  - name: api
    url: http://api:3001
    routes: [{ name: api, paths: [/] }]
upstreams:
  - name: api
    targets: [{ target: "api-1:3001", weight: 50 }, { target: api-2 }]
    healthchecks:
      passive: { unhealthy: { tcp_failures: 2 } }
`);
    expect(config.services[0]!.retries).toBe(5);
    const [upstream] = config.upstreams;
    expect(upstream!.algorithm).toBe('round-robin');
    expect(upstream!.targets).toEqual([
      { host: 'api-1', port: 3001, weight: 50 },
      { host: 'api-2', port: 8000, weight: 100 },
    ]);
    const { active, passive, threshold } = upstream!.healthchecks;
    expect(passive.unhealthy).toEqual({
      http_statuses: [429, 500, 503],
      tcp_failures: 2,
      timeouts: 0,
      http_failures: 0,
    });
    expect(passive.healthy.successes).toBe(0);
    expect(active).toMatchObject({
      http_path: '/',
      timeout: 1,
      healthy: { interval: 0, http_statuses: [200, 302] },
    });
    expect(threshold).toBe(0);
  });

  it('refuses what it does not balance like Kong', () => {
    const problems = problemsOf(`
_format_version: "3.0"
upstreams:
  - name: api
    algorithm: least-connections
    host_header: api.internal
    healthchecks: { active: { type: tcp } }
    targets: [{ target: "a:1" }, { target: "a:1" }]
  - name: "api:80"
`);
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringContaining('algorithm "least-connections" is not implemented'),
        expect.stringContaining('field "host_header" is not implemented'),
        expect.stringContaining('health check type "tcp" is not implemented'),
        expect.stringContaining('an upstream name is a hostname, without port'),
      ]),
    );
    expect(
      problemsOf(
        `_format_version: "3.0"\nupstreams:\n  - name: api\n    targets: [{ target: "a:1" }, { target: "a:1" }]\n`,
      ),
    ).toEqual([expect.stringContaining('target a:1 is listed twice')]);
  });
});
