import {
  ROOT_CONTEXT,
  type Span,
  type SpanContext,
  TraceFlags,
  ValueType,
  context,
  metrics,
  propagation,
  trace,
} from '@opentelemetry/api';
import { RandomIdGenerator } from '@opentelemetry/sdk-trace';
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';

/** Probes and scrapes are not traffic: they would fill traces and the request-duration histogram. */
export const UNTRACED_PATH = /^\/(health\/|metrics)/;

/** The buckets OpenTelemetry's HTTP semantic conventions advise for `http.server.request.duration`. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];

/**
 * `@fastify/otel`'s request hook: its server span is named `request` and carries the method, path,
 * route and status; this names it as the HTTP semantic conventions do (`GET /api/products/:id`) and
 * adds what they ask of a server span, for recorded spans only (an unsampled request pays nothing).
 * The query string stays out, as at the gateway (`@fastify/otel` puts the whole URL in `url.path`):
 * searches, an admin's by e-mail among them, are people's data.
 */
export function describeServerSpan(span: Span, request: FastifyRequest): void {
  if (!span.isRecording()) return;
  const route = request.routeOptions.url;
  span.updateName(route ? `${request.method} ${route}` : request.method);
  const userAgent = request.headers['user-agent'];
  span.setAttributes({
    'url.path': request.url.split('?', 1)[0],
    'url.scheme': request.protocol,
    'network.protocol.version': request.raw.httpVersion,
    'client.address': request.ip,
    ...(userAgent ? { 'user_agent.original': userAgent } : {}),
  });
}

/**
 * Server requests, followed in Fastify (the http instrumentation's incoming side is off:
 * start-telemetry.ts).
 *
 * - Always (the SDK on): `http.server.request.duration`, under the name and attributes of the HTTP
 *   semantic conventions (method, scheme, protocol version, route, status, and error type for a 5xx).
 * - With nothing recorded (no exporter, `serverSpans` is `kit`): the caller's W3C trace context is
 *   continued in a non-recording server span with a fresh span id, so log lines, NATS commands and
 *   outbox records carry the ids. While spans are recorded, `@fastify/otel` makes that span instead.
 */
export function addServerRequestTelemetry(instance: FastifyInstance, serverSpans: 'fastify' | 'kit'): void {
  const duration = metrics.getMeter('@shop/service-kit').createHistogram('http.server.request.duration', {
    description: 'Duration of HTTP server requests.',
    unit: 's',
    valueType: ValueType.DOUBLE,
    advice: { explicitBucketBoundaries: DURATION_BUCKETS },
  });

  if (serverSpans === 'kit') {
    const ids = new RandomIdGenerator();
    /**
     * The server span's context, made here rather than by the tracer: with nothing recorded the SDK's
     * `startSpan` would only reach the same non-recording span after cleaning attributes, asking the
     * always-off sampler and counting the span in its own metrics, about a third of what telemetry
     * cost a cached product read (docs/observability.md, "What tracing costs"). The flags are the ones
     * that sampler gives: not sampled.
     */
    const serverSpanOf = (caller: SpanContext | undefined): SpanContext => ({
      traceId: caller && trace.isSpanContextValid(caller) ? caller.traceId : ids.generateTraceId(),
      spanId: ids.generateSpanId(),
      traceFlags: TraceFlags.NONE,
      ...(caller?.traceState ? { traceState: caller.traceState } : {}),
    });
    instance.addHook(
      'onRequest',
      (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
        if (UNTRACED_PATH.test(request.url)) {
          done();
          return;
        }
        const parent = propagation.extract(ROOT_CONTEXT, request.headers);
        const active = trace.setSpanContext(parent, serverSpanOf(trace.getSpanContext(parent)));
        // Everything after this hook (reading the body, the handler, the answer, the access log) runs
        // in promises and callbacks created within it, so the context follows without binding the
        // request's and response's emitters (no-exporter test: a body arriving in parts, a read
        // without a body).
        context.with(active, done);
      },
    );
  }

  instance.addHook(
    'onResponse',
    (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
      if (!UNTRACED_PATH.test(request.url)) {
        const status = reply.statusCode;
        const route = request.routeOptions.url;
        duration.record(reply.elapsedTime / 1000, {
          'http.request.method': request.method,
          'url.scheme': request.protocol,
          'network.protocol.version': request.raw.httpVersion,
          'http.response.status_code': status,
          ...(route ? { 'http.route': route } : {}),
          ...(status >= 500 ? { 'error.type': String(status) } : {}),
        });
      }
      done();
    },
  );
}
