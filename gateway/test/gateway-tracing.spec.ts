import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { start, type Started } from './support/telemetry-gateway';
import { startUpstream, type TestUpstream, type UpstreamEcho } from './support/upstream.server';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT_ID = '00f067aa0ba902b7';
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-(0[01])$/;

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
