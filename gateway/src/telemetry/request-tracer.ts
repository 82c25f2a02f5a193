import type { IncomingHttpHeaders } from 'node:http';
import {
  type Attributes,
  type Context,
  defaultTextMapGetter,
  defaultTextMapSetter,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
  TraceFlags,
  type Tracer,
} from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import {
  defaultResource,
  detectResources,
  envDetector,
  resourceFromAttributes,
} from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ParentBasedSampler,
  RandomIdGenerator,
  type Sampler,
  SamplingDecision,
  SimpleSpanProcessor,
  type SpanExporter,
  type SpanProcessor,
  TraceIdRatioBasedSampler,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import { GatewayEnvError } from '../config/gateway-env';
import type { OpenTelemetryPlugin } from './opentelemetry.plugin';

/** Kong's name for the span of a request (kong/observability/tracing/instrumentation.lua). */
export const REQUEST_SPAN_NAME = 'kong';

export interface RequestTracerOptions {
  readonly plugin: OpenTelemetryPlugin;
  /** OTEL_* variables: the sampler, the OTLP endpoint, the service name and resource attributes. */
  readonly env: NodeJS.ProcessEnv;
  /** Spans go to this exporter, one by one (tests), instead of to the environment's OTLP endpoint. */
  readonly spanExporter?: SpanExporter;
}

/** What the request span records when the answer is done (Kong's header_filter and log phases). */
export interface RequestSpanEnd {
  readonly status: number;
  readonly service?: string;
  readonly route?: string;
  /** The route's first path, Kong's `http.route`. */
  readonly routePath?: string;
  readonly correlationId?: string;
}

const TRACEPARENT = 'traceparent';
const TRACESTATE = 'tracestate';

function ratioFrom(env: NodeJS.ProcessEnv): number {
  const raw = env.OTEL_TRACES_SAMPLER_ARG?.trim();
  if (!raw) return 1;
  const ratio = Number(raw);
  if (!Number.isFinite(ratio) || ratio < 0 || ratio > 1) {
    throw new GatewayEnvError([
      `OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1, got ${JSON.stringify(raw)}`,
    ]);
  }
  return ratio;
}

/** The sampler of OTEL_TRACES_SAMPLER (the standard names), else the plugin's `sampling_rate`, else always on. */
export function samplerFrom(env: NodeJS.ProcessEnv, samplingRate: number | undefined): Sampler {
  const name = env.OTEL_TRACES_SAMPLER?.trim().toLowerCase();
  const parentBased = (root: Sampler): Sampler => new ParentBasedSampler({ root });
  switch (name) {
    case undefined:
    case '':
      return parentBased(
        samplingRate === undefined ? new AlwaysOnSampler() : new TraceIdRatioBasedSampler(samplingRate),
      );
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return new TraceIdRatioBasedSampler(ratioFrom(env));
    case 'parentbased_always_on':
      return parentBased(new AlwaysOnSampler());
    case 'parentbased_always_off':
      return parentBased(new AlwaysOffSampler());
    case 'parentbased_traceidratio':
      return parentBased(new TraceIdRatioBasedSampler(ratioFrom(env)));
    default:
      throw new GatewayEnvError([
        `OTEL_TRACES_SAMPLER ${JSON.stringify(name)} is not one the gateway knows (always_on, always_off, traceidratio, parentbased_always_on, parentbased_always_off, parentbased_traceidratio)`,
      ]);
  }
}

const isTrue = (value: string | undefined): boolean => value?.trim().toLowerCase() === 'true';

/** The exporter the environment asks for: OTLP http/protobuf when an endpoint is set, else none. */
function environmentExporter(env: NodeJS.ProcessEnv): SpanExporter | undefined {
  if (isTrue(env.OTEL_SDK_DISABLED) || env.OTEL_TRACES_EXPORTER?.trim().toLowerCase() === 'none')
    return undefined;
  const tracesEndpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  const endpoint = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  if (!tracesEndpoint && !endpoint) return undefined;
  // As the standard says: the traces endpoint as it is, the general one with the signal's path added.
  // The exporter reads the other OTEL_EXPORTER_OTLP_* variables (headers, timeout, compression) itself.
  return new OTLPTraceExporter({ url: tracesEndpoint || `${endpoint!.replace(/\/+$/, '')}/v1/traces` });
}

/**
 * What Kong's `opentelemetry` plugin does for each request: continue the incoming W3C trace (or start
 * one), record one SERVER span, and give the service the gateway span as its parent. With no exporter
 * (no OTLP endpoint) there is no SDK at all: the span is only a fresh id in the propagated context, so
 * logs and services still see one trace, at the cost of two random ids per request.
 */
export class RequestTracer {
  private readonly propagator = new W3CTraceContextPropagator();
  private readonly sampler: Sampler;
  private readonly ids = new RandomIdGenerator();
  private readonly provider?: TracerProvider;
  private readonly tracer?: Tracer;
  /** Where spans go: `otlp`, `exporter` (given in the options) or `none`. */
  readonly exportsTo: 'otlp' | 'exporter' | 'none';

  constructor(private readonly options: RequestTracerOptions) {
    const { plugin, env } = options;
    this.sampler = samplerFrom(env, plugin.config.sampling_rate);
    const exporter = options.spanExporter ?? environmentExporter(env);
    this.exportsTo = options.spanExporter ? 'exporter' : exporter ? 'otlp' : 'none';
    if (!exporter) return;
    const processor: SpanProcessor = options.spanExporter
      ? new SimpleSpanProcessor({ exporter })
      : new BatchSpanProcessor({ exporter });
    const resource = defaultResource()
      .merge(resourceFromAttributes({ 'service.name': 'gateway', ...plugin.config.resource_attributes }))
      // OTEL_RESOURCE_ATTRIBUTES and OTEL_SERVICE_NAME win, as everywhere else.
      .merge(detectResources({ detectors: [envDetector] }))
      .merge(
        env.OTEL_SERVICE_NAME?.trim()
          ? resourceFromAttributes({ 'service.name': env.OTEL_SERVICE_NAME.trim() })
          : null,
      );
    this.provider = new TracerProvider({ sampler: this.sampler, resource, spanProcessors: [processor] });
    this.tracer = this.provider.getTracer('@shop/gateway');
  }

  /** Starts the span of a request, continuing the incoming `traceparent` when the plugin extracts it. */
  start(headers: IncomingHttpHeaders, attributes: () => Attributes): Span {
    const parent = this.options.plugin.extract
      ? this.propagator.extract(ROOT_CONTEXT, headers, defaultTextMapGetter)
      : ROOT_CONTEXT;
    for (const name of this.options.plugin.clear) delete headers[name];
    if (this.tracer) {
      return this.tracer.startSpan(
        REQUEST_SPAN_NAME,
        { kind: SpanKind.SERVER, attributes: attributes() },
        parent,
      );
    }
    return this.idOnlySpan(parent);
  }

  /** Replaces the request's trace context with the gateway span's, for the service. */
  inject(span: Span, headers: IncomingHttpHeaders): void {
    if (!this.options.plugin.inject) return;
    delete headers[TRACEPARENT];
    delete headers[TRACESTATE];
    this.propagator.inject(trace.setSpan(ROOT_CONTEXT, span), headers, defaultTextMapSetter);
  }

  /** Ends the request span with its route and status (5xx marks it failed, as for any server span). */
  end(span: Span, result: RequestSpanEnd): void {
    if (!span.isRecording()) return;
    span.setAttribute('http.response.status_code', result.status);
    if (result.routePath !== undefined) span.setAttribute('http.route', result.routePath);
    if (result.route !== undefined) span.setAttribute('kong.route.name', result.route);
    if (result.service !== undefined) span.setAttribute('kong.service.name', result.service);
    if (result.correlationId !== undefined) span.setAttribute('kong.request.id', result.correlationId);
    if (result.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  }

  /** Sends the spans still queued and stops the exporter. */
  async shutdown(): Promise<void> {
    await this.provider?.shutdown();
  }

  // Without an SDK the API's tracer would hand back the parent's own ids; the gateway is a hop of its
  // own, so it takes a new span id (and a new trace id without a parent) and samples as configured.
  private idOnlySpan(parent: Context): Span {
    const incoming = trace.getSpanContext(parent);
    const traceId = incoming?.traceId ?? this.ids.generateTraceId();
    const { decision } = this.sampler.shouldSample(
      parent,
      traceId,
      REQUEST_SPAN_NAME,
      SpanKind.SERVER,
      {},
      [],
    );
    return trace.wrapSpanContext({
      traceId,
      spanId: this.ids.generateSpanId(),
      traceFlags: decision === SamplingDecision.RECORD_AND_SAMPLED ? TraceFlags.SAMPLED : TraceFlags.NONE,
      traceState: incoming?.traceState,
    });
  }
}
