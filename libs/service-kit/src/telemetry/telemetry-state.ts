import type { PrometheusExporter } from '@opentelemetry/exporter-prometheus';

/**
 * What `startTelemetry` set up in this process, for the parts of the kit that start later with the
 * service (the metrics listener needs the validated HOST and PORT, known only then).
 */
export const telemetryState: {
  prometheus?: PrometheusExporter;
  /** Sends the spans still buffered (a service calls it as it stops, before the process exits). */
  flush?: () => Promise<void>;
  /**
   * Who makes the server span of a request: `@fastify/otel` while spans are recorded, the kit's own
   * Fastify hook otherwise (a non-recording span that carries the ids); nobody when the SDK is off.
   * The kit records the request-duration histogram in both cases.
   */
  serverSpans?: 'fastify' | 'kit';
} = {};
