// First: the SDK starts before anything it instruments is loaded (see in-memory-telemetry.ts).
import { finishedSpans, telemetry } from './telemetry/in-memory-telemetry';
import { randomBytes } from 'node:crypto';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { eventSubject } from '@shop/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { THING_MADE } from './telemetry/traced-app.module';
import { type TracedApp, consumedEventOf, sample, startTracedApp } from './telemetry/traced-app';

let traced: TracedApp;

beforeAll(async () => {
  traced = await startTracedApp('telemetry');
});

afterAll(async () => {
  await traced?.close();
  await telemetry.shutdown();
});

const spansOf = (traceId: string): ReadableSpan[] =>
  finishedSpans.getFinishedSpans().filter((span) => span.spanContext().traceId === traceId);

const parentOf = (span: ReadableSpan): string | undefined => span.parentSpanContext?.spanId;

/** True when `ancestor` is `span`'s parent, grandparent, ... within the trace. */
function descendsFrom(span: ReadableSpan, ancestor: ReadableSpan, trace: ReadableSpan[]): boolean {
  const byId = new Map(trace.map((each) => [each.spanContext().spanId, each]));
  for (let current = parentOf(span); current !== undefined; current = parentOf(byId.get(current)!)) {
    if (current === ancestor.spanContext().spanId) return true;
    if (!byId.has(current)) return false;
  }
  return false;
}

describe('one trace per request, across NATS, the database and the outbox', () => {
  const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
  const gatewaySpanId = '00f067aa0ba902b7';
  let id: string;

  beforeAll(async () => {
    id = await traced.make('traced thing', `00-${traceId}-${gatewaySpanId}-01`);
    await consumedEventOf(traced, id);
  });

  it("continues the caller's trace in one server span, named and described as the conventions say", async () => {
    const servers = spansOf(traceId).filter((span) => span.kind === SpanKind.SERVER);
    expect(servers).toHaveLength(1);
    const [server] = servers;
    expect(parentOf(server!)).toBe(gatewaySpanId);
    expect(server!.name).toBe('POST /api/traced');
    expect(server!.attributes).toMatchObject({
      'http.request.method': 'POST',
      'http.route': '/api/traced',
      'http.response.status_code': 201,
      'url.path': '/api/traced',
      'url.scheme': 'http',
      'network.protocol.version': '1.1',
    });
  });

  /** GETs `path` in a sampled trace of its own, as the gateway calls; answers the status and the server span. */
  async function serverSpanOfGet(path: string) {
    const traceIdOfCall = randomBytes(16).toString('hex');
    const response = await traced.call(path, {
      headers: { traceparent: `00-${traceIdOfCall}-${gatewaySpanId}-01` },
    });
    const serverOf = () => spansOf(traceIdOfCall).find((span) => span.kind === SpanKind.SERVER);
    await expect.poll(serverOf).toBeDefined();
    return { status: response.status, server: serverOf()! };
  }

  it("keeps the query string out of the server span (searches are people's data)", async () => {
    const { status, server } = await serverSpanOfGet('/api/traced?q=someone%40example.com');
    expect(status).toBe(200);
    expect(server.name).toBe('GET /api/traced');
    expect(server.attributes['url.path']).toBe('/api/traced');
    expect(JSON.stringify(server.attributes)).not.toContain('example.com');
  });

  it('marks the server span of a 5xx answer as an error', async () => {
    const { status, server } = await serverSpanOfGet('/api/traced/broken');
    expect(status).toBe(500);
    expect(server.name).toBe('GET /api/traced/broken');
    expect(server.status.code).toBe(SpanStatusCode.ERROR);
    expect(server.attributes).toMatchObject({ 'http.response.status_code': 500, 'error.type': '500' });
  });

  it('keeps nothing of a request whose caller did not sample its trace, and still passes its ids on', async () => {
    const unsampledTrace = '6b8d0f2a4c6e8a0b2d4f6a8c0e2b4d6f';
    const unsampled = await traced.make('unsampled thing', `00-${unsampledTrace}-${gatewaySpanId}-00`);
    const made = traced.madeLine(unsampled);
    expect(made?.['trace_id']).toBe(unsampledTrace);
    expect(made?.['span_id']).toMatch(/^[0-9a-f]{16}$/);
    expect(made?.['span_id']).not.toBe(gatewaySpanId);
    // The outbox event is published later in the same trace: by then every span of it would be in.
    expect((await consumedEventOf(traced, unsampled)).traceId).toBe(unsampledTrace);
    expect(spansOf(unsampledTrace).map((span) => span.name)).toEqual([]);
  });

  it('carries the NATS command: PRODUCER under the request, CONSUMER under it, the database write under that', async () => {
    const trace = spansOf(traceId);
    const server = trace.find((span) => span.kind === SpanKind.SERVER)!;
    const publish = trace.find((span) => span.name === 'things.store publish');
    const process = trace.find((span) => span.name === 'things.store process');
    expect(publish?.kind).toBe(SpanKind.PRODUCER);
    expect(process?.kind).toBe(SpanKind.CONSUMER);
    expect(descendsFrom(publish!, server, trace)).toBe(true);
    expect(parentOf(process!)).toBe(publish!.spanContext().spanId);
    expect(publish!.attributes).toMatchObject({
      'messaging.system': 'nats',
      'messaging.destination.name': 'things.store',
    });
    const insert = trace.find(
      (span) => span.instrumentationScope.name.includes('mongodb') && descendsFrom(span, process!, trace),
    );
    expect(insert?.kind).toBe(SpanKind.CLIENT);
    expect(JSON.stringify(insert!.attributes)).toContain('insert');
    // The kit's serializer: the command's shape, no stored value.
    expect(insert!.attributes['db.query.text']).toMatch(/^\{.*"\?".*\}$/);
  });

  it('publishes the outbox event later in the same trace, and its consumer joins it', async () => {
    const subject = eventSubject(THING_MADE);
    await expect.poll(() => spansOf(traceId).some((span) => span.name === `${subject} process`)).toBe(true);
    const trace = spansOf(traceId);
    const server = trace.find((span) => span.kind === SpanKind.SERVER)!;
    const publish = trace.find((span) => span.name === `${subject} publish`);
    const process = trace.find((span) => span.name === `${subject} process`);
    expect(publish?.kind).toBe(SpanKind.PRODUCER);
    expect(descendsFrom(publish!, server, trace)).toBe(true);
    expect(process?.kind).toBe(SpanKind.CONSUMER);
    expect(parentOf(process!)).toBe(publish!.spanContext().spanId);
    expect(process!.attributes).toMatchObject({
      'messaging.consumer.group.name': traced.durable,
      'messaging.nats.redelivered': false,
      'messaging.nats.delivery_count': 1,
    });
  });

  it("writes the request's trace_id and span_id on its log lines", async () => {
    const made = traced.madeLine(id);
    expect(made).toMatchObject({ trace_id: traceId, span_id: expect.stringMatching(/^[0-9a-f]{16}$/) });
    // A request that went well has no access line of the service's own (the gateway's says it); a refusal has.
    expect(traced.logLines.filter((line) => line['trace_id'] === traceId && 'statusCode' in line)).toEqual(
      [],
    );
    const refusedTrace = '5c0f3a8e9d7b4c2a1e6f0d9c8b7a6e5f';
    await traced.refused(`00-${refusedTrace}-${gatewaySpanId}-01`);
    await expect
      .poll(() =>
        traced.logLines.find(
          (line) => line['msg'] === 'request refused' && line['trace_id'] === refusedTrace,
        ),
      )
      .toMatchObject({
        url: '/api/traced',
        statusCode: 400,
        span_id: expect.stringMatching(/^[0-9a-f]{16}$/),
      });
  });

  it('starts a trace for a request that comes without one', async () => {
    const before = traced.logLines.length;
    const own = await traced.make('untraced caller');
    const line = traced.madeLine(own, before);
    expect(line?.['trace_id']).toMatch(/^[0-9a-f]{32}$/);
    expect(line?.['trace_id']).not.toBe(traceId);
  });
});

describe('metrics on the service’s own listener', () => {
  const scrape = () => traced.scrape();

  it('counts known traffic: requests per route, the shop counters, lag and backlog', async () => {
    const before = await scrape();
    const routeLabels = { http_route: '/api/traced', http_response_status_code: '201' };
    const requestsBefore = sample(before, 'http_server_request_duration_seconds_count', routeLabels) ?? 0;
    const madeBefore = sample(before, 'shop_things_made_total', { kind: 'traced' }) ?? 0;
    await traced.make('counted one');
    await traced.make('counted two');
    await expect
      .poll(async () => sample(await scrape(), 'http_server_request_duration_seconds_count', routeLabels))
      .toBe(requestsBefore + 2);
    const after = await scrape();
    expect(sample(after, 'shop_things_made_total', { kind: 'traced' })).toBe(madeBefore + 2);
    expect(sample(after, 'http_server_request_duration_seconds_bucket', { ...routeLabels, le: '+Inf' })).toBe(
      requestsBefore + 2,
    );
    await expect
      .poll(async () => sample(await scrape(), 'shop_outbox_backlog', { aggregate: 'Thing' }))
      .toBe(0);
    expect(
      sample(after, 'shop_jetstream_consumer_pending', { consumer: traced.durable }),
    ).toBeGreaterThanOrEqual(0);
    expect(sample(after, 'shop_outbox_oldest_age_seconds', { aggregate: 'Thing' })).toBeGreaterThanOrEqual(0);
    expect(
      sample(after, 'shop_jetstream_consumer_oldest_pending_age_seconds', { consumer: traced.durable }),
    ).toBeGreaterThanOrEqual(0);
  });

  it('serves the runtime and the MongoDB pool', async () => {
    const text = await scrape();
    expect(text).toMatch(/^nodejs_eventloop_delay_p99_seconds/m);
    expect(text).toMatch(/^v8js_memory_heap_used_bytes/m);
    expect(text).toMatch(/^db_client_connection_count/m);
  });

  it('samples the event loop every 100 ms, and a blocked loop still shows whole', async () => {
    const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    await scrape(); // each scrape starts the delay histogram afresh
    await wait(600);
    const blockedAt = performance.now();
    while (performance.now() - blockedAt < 300); // the loop blocked for 300 ms
    await wait(300);
    const text = await scrape();
    // Each sample is the time between two firings of a 100 ms timer (10 ms would read ~0.01 here).
    expect(sample(text, 'nodejs_eventloop_delay_min_seconds')).toBeGreaterThanOrEqual(0.09);
    expect(sample(text, 'nodejs_eventloop_delay_max_seconds')).toBeGreaterThanOrEqual(0.3);
  });

  it('leaves scrapes and probes out of the traces and the request metrics', async () => {
    await fetch(`${traced.base}/health/live`);
    await scrape();
    // The test's own calls are traced too (CLIENT spans of its fetch): only the service's spans count.
    const urls = finishedSpans
      .getFinishedSpans()
      .filter((span) => span.kind === SpanKind.SERVER)
      .map((span) => String(span.attributes['url.path'] ?? span.attributes['http.route'] ?? ''));
    expect(urls.filter((url) => url.startsWith('/health') || url.startsWith('/metrics'))).toEqual([]);
    expect(await scrape()).not.toContain('http_route="/health/live"');
  });

  it('answers anything but GET /metrics with a JSON 404', async () => {
    const response = await fetch(traced.metricsUrl.replace('/metrics', '/other'));
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ message: expect.any(String) });
  });
});
