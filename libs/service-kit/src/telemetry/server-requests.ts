import {
  type Context,
  ROOT_CONTEXT,
  type Span,
  type SpanContext,
  SpanKind,
  SpanStatusCode,
  TraceFlags,
  context,
  propagation,
  trace,
} from '@opentelemetry/api';
import { TraceState, parseTraceParent } from '@opentelemetry/core';
import { RandomIdGenerator } from '@opentelemetry/sdk-trace';
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { IncomingHttpHeaders } from 'node:http';
import type { RequestDurations } from './request-durations';

/** Probes and scrapes are not traffic: they would fill traces and the request-duration histogram. */
export const UNTRACED_PATH = /^\/(health\/|metrics)/;

/** How the kit follows server requests; `undefined` in `telemetryState` when the SDK is off. */
export interface ServerRequestTracing {
  /** Spans are recorded and exported (an exporter is set): the sampler decides request by request. */
  recording: boolean;
  /**
   * The sampler follows the caller's decision (`parentbased_*`, the SDK's default): a request whose
   * caller did not sample its trace is not sampled here either, so its span is made without asking.
   */
  followsCaller: boolean;
  /** `http.server.request.duration`, read by the metric reader. */
  durations: RequestDurations;
}

/** A header's value as the W3C propagator reads it: the first of repeated ones. */
const first = (value: string | string[] | undefined): string | undefined =>
  Array.isArray(value) ? value[0] : value;

/**
 * The caller's span from its W3C `traceparent` (and `tracestate`), read as the W3C propagator reads
 * them, without the contexts `propagation.extract` builds on the way: undefined without a valid one
 * (`parseTraceParent` refuses zero ids and version `ff`).
 */
function callerSpanOf(headers: IncomingHttpHeaders): SpanContext | undefined {
  const header = first(headers['traceparent']);
  const caller = header ? parseTraceParent(header) : null;
  if (!caller) return undefined;
  caller.isRemote = true;
  const state = headers['tracestate'];
  if (state) caller.traceState = new TraceState(Array.isArray(state) ? state.join(',') : state);
  return caller;
}

/** What a recorded server span says of its request, besides its method and route. */
function describeServerSpan(span: Span, request: FastifyRequest): void {
  const userAgent = request.headers['user-agent'];
  span.setAttributes({
    // The query string stays out, as at the gateway: searches, an admin's by e-mail among them, are
    // people's data.
    'url.path': request.url.split('?', 1)[0],
    'url.scheme': request.protocol,
    'network.protocol.version': request.raw.httpVersion,
    'client.address': request.ip,
    ...(userAgent ? { 'user_agent.original': userAgent } : {}),
  });
}

/**
 * Server requests, followed in Fastify by the kit alone (the http instrumentation's incoming side is
 * off, and no Fastify or Nest instrumentation is loaded: start-telemetry.ts).
 *
 * - The server span continues the caller's W3C trace context, so log lines, NATS commands and outbox
 *   records carry the ids. It is named as the HTTP semantic conventions say (`GET /api/products/:id`)
 *   and, when recorded, carries what they ask of a server span; a 5xx marks it as an error.
 * - A span nothing will keep (no exporter; or a caller that did not sample its trace, under a sampler
 *   that follows the caller) is made here rather than by the tracer: the SDK's `startSpan` would only
 *   reach the same non-recording span after cleaning attributes, asking the sampler and counting the
 *   span in its own metrics, about a third of what telemetry cost a cached product read
 *   (docs/observability.md, "What tracing costs"). Its flags are the ones that sampler gives: not
 *   sampled. Every other request asks the tracer, whose sampler decides. Such a span's context is read
 *   from the caller's `traceparent` and `tracestate` directly and is the only context made for it
 *   (through `propagation.extract`, one context held the caller's span and a second one this span).
 * - Always (the SDK on): `http.server.request.duration`, under the name and attributes of the HTTP
 *   semantic conventions (method, scheme, protocol version, route, status, and error type for a 5xx),
 *   counted by the kit's own producer (request-durations.ts).
 */
export function addServerRequestTelemetry(instance: FastifyInstance, tracing: ServerRequestTracing): void {
  const tracer = trace.getTracer('@shop/service-kit');
  const ids = new RandomIdGenerator();
  /** The span of each request the tracer made (recorded or not), ended with its answer. */
  const spans = new WeakMap<FastifyRequest, Span>();

  const unsampledSpanOf = (caller: SpanContext | undefined): SpanContext => ({
    traceId: caller ? caller.traceId : ids.generateTraceId(),
    spanId: ids.generateSpanId(),
    traceFlags: TraceFlags.NONE,
    ...(caller?.traceState ? { traceState: caller.traceState } : {}),
  });
  const decidedByCaller = (caller: SpanContext | undefined): boolean =>
    !tracing.recording ||
    (tracing.followsCaller && caller !== undefined && (caller.traceFlags & TraceFlags.SAMPLED) === 0);

  instance.addHook(
    'onRequest',
    (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
      if (UNTRACED_PATH.test(request.url)) {
        done();
        return;
      }
      const caller = callerSpanOf(request.headers);
      let active: Context;
      if (decidedByCaller(caller)) {
        // One context, holding the span nothing keeps: the ids for the logs, NATS and the outbox.
        active = trace.setSpanContext(ROOT_CONTEXT, unsampledSpanOf(caller));
      } else {
        // The configured propagators read the caller's context (baggage too) for a span that may be kept.
        const parent = propagation.extract(ROOT_CONTEXT, request.headers);
        const route = request.routeOptions.url;
        const span = tracer.startSpan(
          route ? `${request.method} ${route}` : request.method,
          {
            kind: SpanKind.SERVER,
            attributes: { 'http.request.method': request.method, ...(route ? { 'http.route': route } : {}) },
          },
          parent,
        );
        if (span.isRecording()) describeServerSpan(span, request);
        spans.set(request, span);
        active = trace.setSpan(parent, span);
      }
      // Everything after this hook (reading the body, the handler, the answer, the access log) runs in
      // promises and callbacks created within it, so the context follows without binding the request's
      // and response's emitters (tests: a body arriving in parts, a read without a body).
      context.with(active, done);
    },
  );

  /** Ends the request's span, if the tracer made one; with no status when the client left before the answer. */
  const endSpan = (request: FastifyRequest, status?: number): void => {
    const span = spans.get(request);
    if (!span) return;
    spans.delete(request);
    if (status !== undefined && span.isRecording()) {
      span.setAttribute('http.response.status_code', status);
      if (status >= 500) {
        span.setStatus({ code: SpanStatusCode.ERROR });
        span.setAttribute('error.type', String(status));
      }
    }
    span.end();
  };
  instance.addHook('onRequestAbort', (request: FastifyRequest, done: HookHandlerDoneFunction) => {
    endSpan(request);
    done();
  });

  instance.addHook(
    'onResponse',
    (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
      if (!UNTRACED_PATH.test(request.url)) {
        const status = reply.statusCode;
        endSpan(request, status);
        tracing.durations.record(reply.elapsedTime / 1000, {
          method: request.method,
          scheme: request.protocol,
          protocolVersion: request.raw.httpVersion,
          status,
          route: request.routeOptions.url,
        });
      }
      done();
    },
  );
}
