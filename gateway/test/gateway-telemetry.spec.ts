import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseKongConfig, type RunningGateway, startGateway, type StartGatewayOptions } from '../src/index';
import { memoryLogger, writeKongFile } from './support/gateway.fixture';
import { startUpstream, type TestUpstream, type UpstreamEcho } from './support/upstream.server';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT_ID = '00f067aa0ba902b7';
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-(0[01])$/;

const kongYml = (plugins: string): string => `
_format_version: "3.0"
services:
  - name: api
    url: http://api:3001
    routes:
      - name: api-read
        paths: [/api/things, /api/other]
        methods: [GET]
        strip_path: false
      - name: api
        paths: [/api]
        strip_path: false
        plugins:
          - name: rate-limiting
            config: { hour: 1, policy: local, limit_by: ip }
plugins:
  - name: correlation-id
    config: { header_name: Kong-Request-ID, generator: uuid#counter, echo_downstream: true }
${plugins}`;

const TELEMETRY = `
  - name: opentelemetry
    config:
      traces_endpoint: http://otel-collector:4318/v1/traces
      resource_attributes: { deployment.environment.name: test }
      propagation: { extract: [w3c], inject: [w3c], default_format: w3c }
  - name: prometheus
    config: { status_code_metrics: true, latency_metrics: true, bandwidth_metrics: true }
`;

interface Started {
  gateway: RunningGateway;
  lines: Record<string, unknown>[];
  close(): Promise<void>;
}

async function start(
  upstream: TestUpstream,
  options: Partial<StartGatewayOptions> = {},
  plugins = TELEMETRY,
): Promise<Started> {
  const file = writeKongFile(kongYml(plugins));
  const { logger, lines } = memoryLogger();
  const gateway = await startGateway({
    configPath: file.path,
    port: 0,
    host: '127.0.0.1',
    upstreams: { api: upstream.address },
    logger,
    telemetryEnv: {},
    ...options,
  });
  return {
    gateway,
    lines,
    close: async () => {
      await gateway.close();
      file.remove();
    },
  };
}

async function get(url: string, headers: Record<string, string> = {}): Promise<UpstreamEcho> {
  const response = await fetch(url, { headers });
  expect(response.status).toBe(200);
  return (await response.json()) as UpstreamEcho;
}

function upstreamContext(echo: UpstreamEcho): { traceId: string; parentId: string; flags: string } {
  const match = TRACEPARENT.exec(String(echo.headers.traceparent));
  expect(match, `traceparent sent upstream: ${String(echo.headers.traceparent)}`).not.toBeNull();
  return { traceId: match![1]!, parentId: match![2]!, flags: match![3]! };
}

/** The access line of a request, once it is written (after the answer). */
async function accessLine(lines: Record<string, unknown>[], correlationId: string) {
  await expect.poll(() => lines.find((line) => line.correlationId === correlationId)).toBeDefined();
  return lines.find((line) => line.correlationId === correlationId)!;
}

describe('gateway tracing (the opentelemetry plugin)', () => {
  let upstream: TestUpstream;
  let started: Started;
  const exporter = new InMemorySpanExporter();

  const finishedSpan = async (traceId: string): Promise<ReadableSpan> => {
    await expect
      .poll(() => exporter.getFinishedSpans().find((s) => s.spanContext().traceId === traceId))
      .toBeDefined();
    return exporter.getFinishedSpans().find((s) => s.spanContext().traceId === traceId)!;
  };

  beforeAll(async () => {
    upstream = await startUpstream('api');
    started = await start(upstream, { spanExporter: exporter });
  });
  afterAll(async () => {
    await started.close();
    await upstream.close();
  });
  beforeEach(() => exporter.reset());

  it('continues an incoming traceparent: same trace, the caller as parent, the gateway span as the service parent', async () => {
    const echo = await get(`${started.gateway.url}/api/things?page=2`, {
      traceparent: `00-${TRACE_ID}-${PARENT_ID}-01`,
      tracestate: 'shop=1',
    });

    const sent = upstreamContext(echo);
    expect(sent.traceId).toBe(TRACE_ID);
    expect(sent.parentId).not.toBe(PARENT_ID);
    expect(sent.flags).toBe('01');
    expect(echo.headers.tracestate).toBe('shop=1');

    const span = await finishedSpan(TRACE_ID);
    expect(span.name).toBe('kong');
    expect(span.kind).toBe(SpanKind.SERVER);
    expect(span.spanContext().spanId).toBe(sent.parentId);
    expect(span.parentSpanContext?.spanId).toBe(PARENT_ID);
    expect(span.parentSpanContext?.isRemote).toBe(true);
    expect(span.attributes).toMatchObject({
      'http.request.method': 'GET',
      'url.path': '/api/things',
      'http.response.status_code': 200,
      'http.route': '/api/things',
      'kong.route.name': 'api-read',
      'kong.service.name': 'api',
      'kong.request.id': echo.headers['kong-request-id'],
    });
    expect(span.resource.attributes).toMatchObject({
      'service.name': 'gateway',
      'deployment.environment.name': 'test',
    });
  });

  it('starts a trace when the request carries none, and logs its ids beside the correlation id', async () => {
    const echo = await get(`${started.gateway.url}/api/other`);
    const sent = upstreamContext(echo);
    expect(sent.flags).toBe('01');

    const span = await finishedSpan(sent.traceId);
    expect(span.parentSpanContext).toBeUndefined();
    expect(span.spanContext().spanId).toBe(sent.parentId);

    const line = await accessLine(started.lines, String(echo.headers['kong-request-id']));
    expect(line).toMatchObject({ trace_id: sent.traceId, span_id: sent.parentId, route: 'api-read' });
  });

  it('replaces a malformed traceparent with a trace of its own', async () => {
    const echo = await get(`${started.gateway.url}/api/things`, { traceparent: '00-not-a-trace-01' });
    const sent = upstreamContext(echo);
    expect((await finishedSpan(sent.traceId)).parentSpanContext).toBeUndefined();
  });

  it('keeps an unsampled caller unsampled: the service is told not to record, and nothing is exported', async () => {
    const echo = await get(`${started.gateway.url}/api/things`, {
      traceparent: `00-${TRACE_ID}-${PARENT_ID}-00`,
    });
    const sent = upstreamContext(echo);
    expect(sent).toMatchObject({ traceId: TRACE_ID, flags: '00' });
    await accessLine(started.lines, String(echo.headers['kong-request-id']));
    expect(exporter.getFinishedSpans()).toHaveLength(0);
  });

  it("records the gateway's own answers too, a failed upstream as an error", async () => {
    const response = await fetch(`${started.gateway.url}/nowhere`, {
      headers: { traceparent: `00-${TRACE_ID}-${PARENT_ID}-01` },
    });
    expect(response.status).toBe(404);
    const span = await finishedSpan(TRACE_ID);
    expect(span.attributes['http.response.status_code']).toBe(404);
    expect(span.attributes['kong.route.name']).toBeUndefined();
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
  });
});

describe('gateway tracing without an exporter', () => {
  it('still gives the service a span id of its own in the same trace, and logs it', async () => {
    const upstream = await startUpstream('api');
    const started = await start(upstream);
    try {
      const echo = await get(`${started.gateway.url}/api/things`, {
        traceparent: `00-${TRACE_ID}-${PARENT_ID}-01`,
      });
      const sent = upstreamContext(echo);
      expect(sent).toMatchObject({ traceId: TRACE_ID, flags: '01' });
      expect(sent.parentId).not.toBe(PARENT_ID);
      const line = await accessLine(started.lines, String(echo.headers['kong-request-id']));
      expect(line).toMatchObject({ trace_id: TRACE_ID, span_id: sent.parentId });
      expect(started.lines.find((l) => l.msg === 'gateway listening')).toMatchObject({ traces: 'none' });
    } finally {
      await started.close();
      await upstream.close();
    }
  });

  it('leaves trace headers alone when kong.yml declares no opentelemetry plugin', async () => {
    const upstream = await startUpstream('api');
    const started = await start(upstream, {}, '');
    try {
      const incoming = `00-${TRACE_ID}-${PARENT_ID}-01`;
      const echo = await get(`${started.gateway.url}/api/things`, { traceparent: incoming });
      expect(echo.headers.traceparent).toBe(incoming);
    } finally {
      await started.close();
      await upstream.close();
    }
  });
});

describe('gateway trace export over OTLP http/protobuf', () => {
  let receiver: Server;
  const received: { path: string; contentType: string; body: Buffer }[] = [];

  beforeAll(async () => {
    receiver = createServer((req: IncomingMessage, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        received.push({
          path: req.url ?? '',
          contentType: req.headers['content-type'] ?? '',
          body: Buffer.concat(chunks),
        });
        res.writeHead(200, { 'content-type': 'application/x-protobuf' });
        res.end();
      });
    });
    receiver.listen(0, '127.0.0.1');
    await once(receiver, 'listening');
  });
  afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

  it('sends the spans to OTEL_EXPORTER_OTLP_ENDPOINT (not to the endpoint kong.yml names for the cluster)', async () => {
    const upstream = await startUpstream('api');
    const { port } = receiver.address() as AddressInfo;
    const started = await start(upstream, {
      telemetryEnv: { OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`, OTEL_SERVICE_NAME: 'edge' },
    });
    try {
      await get(`${started.gateway.url}/api/things`, { traceparent: `00-${TRACE_ID}-${PARENT_ID}-01` });
    } finally {
      // Closing sends what the batch processor still holds.
      await started.close();
      await upstream.close();
    }
    expect(received.length).toBeGreaterThan(0);
    const [request] = received;
    expect(request!.path).toBe('/v1/traces');
    expect(request!.contentType).toBe('application/x-protobuf');
    // The protobuf message holds the trace id as 16 raw bytes, and the resource's service name.
    expect(request!.body.includes(Buffer.from(TRACE_ID, 'hex'))).toBe(true);
    expect(request!.body.includes(Buffer.from('edge'))).toBe(true);
  });
});

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
    config: { upstream_health_metrics: true }
`),
    ).toThrow(
      /extract format "b3" is not implemented[\s\S]*"logs_endpoint" of plugin opentelemetry is not implemented[\s\S]*upstream_health_metrics: true is not implemented/,
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
