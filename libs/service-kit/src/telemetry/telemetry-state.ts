import type { PrometheusExporter } from '@opentelemetry/exporter-prometheus';
import type { ServerRequestTracing } from './server-requests';

/**
 * What `startTelemetry` set up in this process, for the parts of the kit that start later with the
 * service (the metrics listener needs the validated HOST and PORT, known only then).
 */
export const telemetryState: {
  prometheus?: PrometheusExporter;
  /** Sends the spans still buffered (a service calls it as it stops, before the process exits). */
  flush?: () => Promise<void>;
  /** How the kit follows server requests (server-requests.ts); unset when the SDK is off. */
  serverRequests?: ServerRequestTracing;
} = {};
