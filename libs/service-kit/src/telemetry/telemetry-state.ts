import type { PrometheusExporter } from '@opentelemetry/exporter-prometheus';

/**
 * What `startTelemetry` set up in this process, for the parts of the kit that start later with the
 * service (the metrics listener needs the validated HOST and PORT, known only then).
 */
export const telemetryState: { prometheus?: PrometheusExporter } = {};
