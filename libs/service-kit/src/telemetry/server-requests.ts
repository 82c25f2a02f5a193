import { ROOT_CONTEXT, SpanKind, ValueType, context, metrics, propagation, trace } from '@opentelemetry/api';
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';

/** Probes and scrapes are not traffic: they would fill traces and the request-duration histogram. */
export const UNTRACED_PATH = /^\/(health\/|metrics)/;

/** The buckets OpenTelemetry's HTTP semantic conventions advise for `http.server.request.duration`. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];

/**
 * Server requests when no span is recorded (no exporter): what the http instrumentation would give,
 * with less work per request. The caller's W3C trace context is continued in a non-recording server
 * span (fresh span id, so log lines, NATS commands and outbox records carry the ids), and
 * `http.server.request.duration` is recorded under the same name and attributes as the
 * instrumentation's (method, scheme, protocol version, route, status, and error type for a 5xx).
 *
 * The http instrumentation works out some twenty span attributes per request and wraps every
 * request's emitter for a span nobody keeps; on a cached product read it took the service from about
 * 90 to 150 µs of CPU (rough figures from a shared machine; these hooks' own saving is not yet
 * measured cleanly: docs/observability.md, "What tracing costs"). With an exporter the
 * instrumentation runs as before: spans are then worth their attributes.
 */
export function addServerRequestTelemetry(instance: FastifyInstance): void {
  const tracer = trace.getTracer('@shop/service-kit');
  const duration = metrics.getMeter('@shop/service-kit').createHistogram('http.server.request.duration', {
    description: 'Duration of HTTP server requests.',
    unit: 's',
    valueType: ValueType.DOUBLE,
    advice: { explicitBucketBoundaries: DURATION_BUCKETS },
  });

  instance.addHook(
    'onRequest',
    (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
      if (UNTRACED_PATH.test(request.url)) {
        done();
        return;
      }
      const parent = propagation.extract(ROOT_CONTEXT, request.headers);
      const span = tracer.startSpan(request.method, { kind: SpanKind.SERVER }, parent);
      const active = trace.setSpan(parent, span);
      // Everything after this hook (reading the body, the handler, the answer, the access log) runs
      // in promises and callbacks created within it, so the context follows without binding the
      // request's and response's emitters as the instrumentation does (no-exporter test: a body
      // arriving in parts, a read without a body).
      context.with(active, done);
    },
  );

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
