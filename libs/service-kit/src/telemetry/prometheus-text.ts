import { PrometheusSerializer } from '@opentelemetry/exporter-prometheus';
import type { MetricData, ResourceMetrics } from '@opentelemetry/sdk-metrics';

// OTel units as Prometheus names them (the OTel-to-Prometheus compatibility rules); an annotation
// unit such as `{event}` says nothing Prometheus keeps.
const PROMETHEUS_UNITS: Record<string, string> = {
  s: 'seconds',
  ms: 'milliseconds',
  By: 'bytes',
  '1': 'ratio',
};

/**
 * The metric as Prometheus expects it named: the unit as a suffix (`http.server.request.duration`
 * in `s` becomes `http_server_request_duration_seconds`), which the exporter leaves out.
 */
function withUnitSuffix(metric: MetricData): MetricData {
  const unit = PROMETHEUS_UNITS[metric.descriptor.unit];
  if (metric.descriptor.unit.startsWith('{'))
    return { ...metric, descriptor: { ...metric.descriptor, unit: '' } };
  if (!unit || metric.descriptor.name.endsWith(`_${unit}`)) return metric;
  return { ...metric, descriptor: { ...metric.descriptor, name: `${metric.descriptor.name}_${unit}`, unit } };
}

const serializer = new PrometheusSerializer();

/** Prometheus text exposition of collected metrics, with unit suffixes on the names. */
export function prometheusText(resourceMetrics: ResourceMetrics): string {
  return serializer.serialize({
    ...resourceMetrics,
    scopeMetrics: resourceMetrics.scopeMetrics.map((scope) => ({
      ...scope,
      metrics: scope.metrics.map(withUnitSuffix),
    })),
  });
}
