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
   * Who follows server requests (trace context, the request-duration histogram): the http
   * instrumentation while spans are recorded, the kit's own Fastify hooks otherwise, nobody when
   * the SDK is off or the http instrumentation is disabled by name.
   */
  serverRequests?: 'instrumentation' | 'kit';
} = {};
