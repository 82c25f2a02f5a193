import { PrometheusExporter } from '@opentelemetry/exporter-prometheus';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { MongoDBInstrumentation } from '@opentelemetry/instrumentation-mongodb';
import { RuntimeNodeInstrumentation } from '@opentelemetry/instrumentation-runtime-node';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { NodeSDK, type NodeSDKConfiguration } from '@opentelemetry/sdk-node';
import {
  AlwaysOffSampler,
  BatchSpanProcessor,
  NoopSpanProcessor,
  type Sampler,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace';
import { dbStatementWhileRecording } from './db-statement';
import { RequestDurations } from './request-durations';
import { telemetryState } from './telemetry-state';

export interface TelemetryOptions {
  /** The environment to read (`process.env` by default). */
  env?: Record<string, string | undefined>;
  /**
   * Where finished spans go instead of OTLP (tests: the SDK's in-memory exporter). Given, spans are
   * recorded whatever OTEL_EXPORTER_OTLP_ENDPOINT says.
   */
  spanProcessors?: SpanProcessor[];
}

export interface Telemetry {
  /** True when spans are recorded and exported (an OTLP endpoint, or processors given). */
  tracing: boolean;
  /** Flushes what is buffered and stops the SDK. */
  shutdown(): Promise<void>;
}

type Instrumentation = Exclude<NodeSDKConfiguration['instrumentations'][number], unknown[]>;

/**
 * The instrumentations, by the names `OTEL_NODE_DISABLED_INSTRUMENTATIONS` takes (comma-separated,
 * as in the OpenTelemetry auto-instrumentations).
 *
 * A server request is followed once, by the kit's own Fastify hooks (server-requests.ts), in every
 * mode: its server span, and `http.server.request.duration`. The http instrumentation follows outgoing
 * calls only: its incoming side would add a second server span per request and work out some twenty
 * attributes for it even when the request is not sampled. No Fastify or Nest instrumentation is
 * loaded: each started spans through the tracer for every request, sampled or not (Nest two per
 * request), which a trace of the shop does not need (docs/observability.md, "What tracing costs").
 */
function disabledInstrumentations(env: Record<string, string | undefined>): Set<string> {
  return new Set((env['OTEL_NODE_DISABLED_INSTRUMENTATIONS'] ?? '').split(',').map((name) => name.trim()));
}

/**
 * How often the event-loop delay is sampled (ms). The instrumentation's default, 10 ms, wakes every
 * service 100 times a second: 6–7 ms of CPU a second each at rest here, 0.7 % of a core per process,
 * the SDK's largest cost at rest (bench `tracing`). A sample is the time between two firings of its
 * timer, the period included: at rest the delay metrics read 0.1 s (they read 0.01 s before), and a
 * loop blocked for 300 ms reads about 0.3–0.4 s at either period. Ten samples a second still give the
 * percentiles of a 15 s scrape 150 samples.
 */
const EVENT_LOOP_SAMPLE_MS = 100;

function instrumentationsFor(tracing: boolean, env: Record<string, string | undefined>): Instrumentation[] {
  const disabled = disabledInstrumentations(env);
  const all: Record<string, () => Instrumentation | undefined> = {
    http: () =>
      tracing ? new HttpInstrumentation({ disableIncomingRequestInstrumentation: true }) : undefined,
    undici: () => new UndiciInstrumentation(),
    mongodb: () => new MongoDBInstrumentation({ dbStatementSerializer: dbStatementWhileRecording }),
    'runtime-node': () => new RuntimeNodeInstrumentation({ monitoringPrecision: EVENT_LOOP_SAMPLE_MS }),
  };
  return Object.entries(all)
    .filter(([name]) => !disabled.has(name))
    .map(([, make]) => make())
    .filter((instrumentation) => instrumentation !== undefined);
}

/** True when `OTEL_TRACES_SAMPLER` names a sampler that follows the caller's decision (the SDK's default does). */
function samplerFollowsCaller(env: Record<string, string | undefined>): boolean {
  const sampler = env['OTEL_TRACES_SAMPLER']?.trim().toLowerCase() || 'parentbased_always_on';
  return sampler.startsWith('parentbased_');
}

/**
 * Starts the OpenTelemetry Node SDK for one service. Call it before Nest, Fastify and the database
 * driver are loaded (the first lines of main.ts): the instrumentations patch them as they load.
 *
 * - Traces: W3C trace context always propagates (HTTP, NATS, outbox), so logs carry `trace_id` and
 *   `span_id`. Spans are recorded and exported by OTLP http/protobuf only when
 *   `OTEL_EXPORTER_OTLP_ENDPOINT` (or `..._TRACES_ENDPOINT`) is set; otherwise every span is a
 *   non-recording one (ids only, nothing kept), which is what makes it nearly free.
 * - Metrics: a Prometheus reader whose listener the service starts on `METRICS_PORT` (see
 *   `MetricsListener`); the standard variables (`OTEL_SERVICE_NAME`, `OTEL_TRACES_SAMPLER`, ...) apply.
 * - `OTEL_SDK_DISABLED=true` starts nothing: no ids, no metrics.
 */
export function startTelemetry(serviceName: string, options: TelemetryOptions = {}): Telemetry {
  const env = options.env ?? process.env;
  const endpoint = env['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'] || env['OTEL_EXPORTER_OTLP_ENDPOINT'];
  const tracing = options.spanProcessors !== undefined || Boolean(endpoint);
  if (env['OTEL_SDK_DISABLED']?.trim().toLowerCase() === 'true') {
    return { tracing: false, shutdown: async () => undefined };
  }
  // No exporter: a tracer provider still makes the ids, but samples nothing (no span is recorded).
  const spanProcessors = options.spanProcessors ?? [
    endpoint ? new BatchSpanProcessor({ exporter: new OTLPTraceExporter() }) : new NoopSpanProcessor(),
  ];
  const sampler: Sampler | undefined = tracing ? undefined : new AlwaysOffSampler();
  const durations = new RequestDurations();
  const prometheus = new PrometheusExporter({ preventServerStart: true, metricProducers: [durations] });
  telemetryState.prometheus = prometheus;
  telemetryState.serverRequests = { recording: tracing, followsCaller: samplerFollowsCaller(env), durations };
  telemetryState.flush = async () => {
    await Promise.all(spanProcessors.map((processor) => processor.forceFlush()));
  };
  const sdk = new NodeSDK({
    // OTEL_SERVICE_NAME wins over the domain name (the resource's env detector reads it).
    ...(env['OTEL_SERVICE_NAME'] ? {} : { serviceName }),
    spanProcessors,
    ...(sampler ? { sampler } : {}),
    metricReaders: [prometheus],
    // Logs stay JSON lines on stdout (with trace_id/span_id); no OTLP log export.
    logRecordProcessors: [],
    instrumentations: instrumentationsFor(tracing, env),
  });
  sdk.start();
  return {
    tracing,
    shutdown: async () => {
      if (telemetryState.prometheus === prometheus) {
        telemetryState.prometheus = undefined;
        telemetryState.flush = undefined;
        telemetryState.serverRequests = undefined;
      }
      await sdk.shutdown();
    },
  };
}
