// The prometheus plugin: Kong's metric names, labels and buckets, on the status listener only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseKongConfig } from '../src/index';
import { start, type Started } from './support/telemetry-gateway';
import { startUpstream, type TestUpstream } from './support/upstream.server';

describe('gateway metrics (the prometheus plugin)', () => {
  let upstream: TestUpstream;
  let started: Started;

  const scrape = async (): Promise<string> => {
    const response = await fetch(`${started.gateway.statusUrl}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/plain');
    return response.text();
  };
  const sample = (text: string, name: string, labels: Record<string, string>): number => {
    const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
    const line = text
      .split('\n')
      .find((l) => l.startsWith(`${name}{`) && wanted.every((label) => l.includes(label)));
    return line === undefined ? 0 : Number(line.slice(line.lastIndexOf(' ') + 1));
  };

  beforeAll(async () => {
    upstream = await startUpstream('api', (req, res) => {
      req.resume();
      req.on('end', () => {
        const status = req.url?.startsWith('/api/broken') ? 503 : 200;
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ ok: status === 200 }));
      });
    });
    started = await start(upstream, { statusPort: 0 });
  });
  afterAll(async () => {
    await started.close();
    await upstream.close();
  });

  it('counts requests per route and code, says who answered, and times them', async () => {
    const before = await scrape();
    const labels = {
      service: 'api',
      route: 'api-read',
      code: '200',
      source: 'service',
      workspace: 'default',
    };
    const okBefore = sample(before, 'kong_http_requests_total', labels);

    for (let i = 0; i < 2; i += 1)
      expect((await fetch(`${started.gateway.url}/api/things`)).status).toBe(200);
    expect((await fetch(`${started.gateway.url}/api/broken`, { method: 'POST', body: '{}' })).status).toBe(
      503,
    );
    // The route's second request of the hour (limit 1): the gateway's own 429.
    expect((await fetch(`${started.gateway.url}/api/broken`)).status).toBe(429);
    expect((await fetch(`${started.gateway.url}/not-routed`)).status).toBe(404);

    await expect
      .poll(async () => sample(await scrape(), 'kong_http_requests_total', labels))
      .toBe(okBefore + 2);
    const after = await scrape();
    expect(sample(after, 'kong_http_requests_total', { route: 'api', code: '503', source: 'service' })).toBe(
      1,
    );
    expect(sample(after, 'kong_http_requests_total', { route: 'api', code: '429', source: 'kong' })).toBe(1);
    // Kong counts nothing for a request that matched no route.
    expect(after).not.toContain('code="404"');

    const count = (name: string) => sample(after, `${name}_count`, { service: 'api', route: 'api-read' });
    expect(count('kong_request_latency_ms')).toBe(okBefore + 2);
    expect(count('kong_upstream_latency_ms')).toBe(okBefore + 2);
    expect(count('kong_kong_latency_ms')).toBe(okBefore + 2);
    expect(sample(after, 'kong_upstream_latency_ms_count', { route: 'api' })).toBe(1);
    expect(sample(after, 'kong_kong_latency_ms_count', { route: 'api' })).toBe(2);
    expect(
      sample(after, 'kong_bandwidth_bytes', { route: 'api-read', direction: 'ingress' }),
    ).toBeGreaterThan(0);
    expect(sample(after, 'kong_bandwidth_bytes', { route: 'api-read', direction: 'egress' })).toBeGreaterThan(
      0,
    );
    expect(after).toContain('nodejs_eventloop_lag_seconds');
  });

  it('serves the metrics only on the status listener, never through the proxy port', async () => {
    const throughProxy = await fetch(`${started.gateway.url}/metrics`);
    expect(throughProxy.status).toBe(404);
    expect(await throughProxy.text()).not.toContain('kong_http_requests_total');

    const elsewhere = await fetch(`${started.gateway.statusUrl}/api/things`);
    expect(elsewhere.status).toBe(404);
    expect(await elsewhere.json()).toEqual({ message: 'Not found' });
    expect(new URL(started.gateway.statusUrl!).port).not.toBe(new URL(started.gateway.url).port);
  });
});

describe('telemetry plugins in kong.yml', () => {
  it('refuses options the local gateway does not implement, and the plugins on a route or service', () => {
    expect(() =>
      parseKongConfig(`
_format_version: "3.0"
plugins:
  - name: opentelemetry
    config:
      traces_endpoint: http://collector:4318/v1/traces
      propagation: { extract: [b3], default_format: w3c }
      logs_endpoint: http://collector:4318/v1/logs
  - name: prometheus
    config: { ai_metrics: true }
`),
    ).toThrow(
      /extract format "b3" is not implemented[\s\S]*"logs_endpoint" of plugin opentelemetry is not implemented[\s\S]*ai_metrics: true is not implemented/,
    );
    expect(() =>
      parseKongConfig(`
_format_version: "3.0"
services:
  - name: api
    url: http://api:3001
    plugins:
      - name: prometheus
    routes:
      - name: api
        paths: [/api]
        plugins:
          - name: opentelemetry
            config: { traces_endpoint: http://collector:4318/v1/traces }
`),
    ).toThrow(/prometheus on a service is not implemented[\s\S]*opentelemetry on a route is not implemented/);
  });
});
