// First: the SDK starts before anything it instruments is loaded, with no exporter.
import { telemetry } from './telemetry/no-exporter-telemetry';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { telemetryState } from '../src/telemetry/telemetry-state';
import { type TracedApp, consumedEventOf, sample, startTracedApp } from './telemetry/traced-app';

// With no exporter the kit's own Fastify hooks follow server requests instead of the http
// instrumentation (server-requests.ts): what the shop relies on must still be there.
let traced: TracedApp;

beforeAll(async () => {
  traced = await startTracedApp('telemetry-off');
});

afterAll(async () => {
  await traced?.close();
  await telemetry.shutdown();
});

describe('server requests with no exporter', () => {
  const traceId = '0af7651916cd43dd8448eb211c80319c';
  const gatewaySpanId = 'b7ad6b7169203331';

  it('records nothing and lets the kit follow requests', () => {
    expect(telemetry.tracing).toBe(false);
    expect(telemetryState.serverRequests).toMatchObject({ recording: false, followsCaller: true });
  });

  it("continues the caller's trace through the body, NATS and the outbox, under a span of its own", async () => {
    const id = await traced.make('quiet thing', `00-${traceId}-${gatewaySpanId}-01`);
    // Logged by the handler, after the body was read from the request's stream.
    const made = traced.madeLine(id);
    expect(made?.['trace_id']).toBe(traceId);
    expect(made?.['span_id']).toMatch(/^[0-9a-f]{16}$/);
    expect(made?.['span_id']).not.toBe(gatewaySpanId);
    const refusedTrace = '1e2d3c4b5a6978877665544332211000';
    await traced.refused(`00-${refusedTrace}-${gatewaySpanId}-01`);
    await expect
      .poll(() =>
        traced.logLines.find(
          (line) => line['msg'] === 'request refused' && line['trace_id'] === refusedTrace,
        ),
      )
      .toMatchObject({ url: '/api/traced', statusCode: 400 });
    // The event, published later by the relay, is handled in the request's trace.
    expect((await consumedEventOf(traced, id)).traceId).toBe(traceId);
  });

  it('keeps the context while a body arrives in parts', async () => {
    const slowTrace = '9a3b2c1d0e0f4a5b6c7d8e9f0a1b2c3d';
    const encoder = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        controller.enqueue(encoder.encode('{"name":'));
        await new Promise((resolve) => setTimeout(resolve, 100));
        controller.enqueue(encoder.encode('"slow thing"}'));
        controller.close();
      },
    });
    const response = await traced.call('/api/traced', {
      method: 'POST',
      headers: { 'content-type': 'application/json', traceparent: `00-${slowTrace}-${gatewaySpanId}-01` },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(response.status).toBe(201);
    const { id } = (await response.json()) as { id: string };
    const made = traced.madeLine(id);
    expect(made?.['trace_id']).toBe(slowTrace);
  });

  it('carries the context of a request without a body into its handler', async () => {
    const readTrace = '5c2e8ef4a1f0b8f4c3d2e1f0a9b8c7d6';
    const response = await traced.call('/api/traced', {
      headers: { traceparent: `00-${readTrace}-${gatewaySpanId}-01` },
    });
    expect(response.status).toBe(200);
    const counted = traced.logLines.find(
      (line) => line['msg'] === 'things counted' && line['trace_id'] === readTrace,
    );
    expect(counted?.['span_id']).toMatch(/^[0-9a-f]{16}$/);
  });

  it("carries the caller's tracestate on to the events the request sets going", async () => {
    const vendors = 'shop=cart-1,vendor=x9';
    const id = await traced.make('stated thing', `00-${traceId}-${gatewaySpanId}-01`, vendors);
    expect(await consumedEventOf(traced, id)).toMatchObject({ traceId, traceState: vendors });
  });

  it('starts a trace for a request that comes without one, or with one that is not valid', async () => {
    const invalid = [
      undefined,
      `00-${'0'.repeat(32)}-${gatewaySpanId}-01`,
      `ff-${traceId}-${gatewaySpanId}-01`,
      `00-${traceId.toUpperCase()}-${gatewaySpanId}-01`,
      'not a traceparent',
    ];
    for (const traceparent of invalid) {
      const before = traced.logLines.length;
      const id = await traced.make('untraced caller', traceparent);
      const made = traced.madeLine(id, before);
      expect(made?.['trace_id'], String(traceparent)).toMatch(/^[0-9a-f]{32}$/);
      expect(made?.['trace_id'], String(traceparent)).not.toMatch(
        /^(0{32}|0af7651916cd43dd8448eb211c80319c)$/,
      );
    }
  });

  it('counts requests per route, method and status under the semantic names, probes left out', async () => {
    const labels = {
      http_route: '/api/traced',
      http_request_method: 'POST',
      http_response_status_code: '201',
      url_scheme: 'http',
      network_protocol_version: '1.1',
    };
    const before = sample(await traced.scrape(), 'http_server_request_duration_seconds_count', labels) ?? 0;
    await traced.make('counted');
    await fetch(`${traced.base}/health/live`);
    const missing = await fetch(`${traced.base}/api/nothing-here`);
    expect(missing.status).toBe(404);
    const after = await traced.scrape();
    expect(sample(after, 'http_server_request_duration_seconds_count', labels)).toBe(before + 1);
    expect(sample(after, 'http_server_request_duration_seconds_bucket', { ...labels, le: '10' })).toBe(
      before + 1,
    );
    expect(
      sample(after, 'http_server_request_duration_seconds_count', { http_response_status_code: '404' }),
    ).toBe(1);
    expect(after).not.toContain('/health/live');
  });
});
