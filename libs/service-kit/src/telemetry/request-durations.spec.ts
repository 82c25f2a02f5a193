import { ValueType } from '@opentelemetry/api';
import { PrometheusExporter } from '@opentelemetry/exporter-prometheus';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { describe, expect, it } from 'vitest';
import { prometheusText } from './prometheus-text';
import {
  type AnsweredRequest,
  DURATION_BUCKETS,
  RequestDurations,
  durationAttributes,
} from './request-durations';

const read: AnsweredRequest = {
  method: 'GET',
  scheme: 'http',
  protocolVersion: '1.1',
  status: 200,
  route: '/api/products/:id',
};
const failed: AnsweredRequest = { ...read, method: 'POST', status: 503, route: '/api/orders' };
const unrouted: AnsweredRequest = { ...read, status: 404, route: undefined };

/** The Prometheus text a reader with `durations` as its producer serves. */
async function textOf(durations: RequestDurations): Promise<string> {
  const reader = new PrometheusExporter({ preventServerStart: true, metricProducers: [durations] });
  const provider = new MeterProvider({ readers: [reader] });
  try {
    return prometheusText((await reader.collect()).resourceMetrics);
  } finally {
    await provider.shutdown();
  }
}

/** The same requests, under the same attributes, recorded into the SDK's own histogram, as the kit did before. */
async function sdkTextOf(records: [number, AnsweredRequest][]): Promise<string> {
  const reader = new PrometheusExporter({ preventServerStart: true });
  const provider = new MeterProvider({ readers: [reader] });
  const histogram = provider.getMeter('@shop/service-kit').createHistogram('http.server.request.duration', {
    description: 'Duration of HTTP server requests.',
    unit: 's',
    valueType: ValueType.DOUBLE,
    advice: { explicitBucketBoundaries: DURATION_BUCKETS },
  });
  for (const [seconds, request] of records) {
    histogram.record(seconds, durationAttributes(request));
  }
  try {
    return prometheusText((await reader.collect()).resourceMetrics);
  } finally {
    await provider.shutdown();
  }
}

/** The histogram's sample lines, sorted (the two keep their series in different orders). */
const samplesOf = (text: string): string[] =>
  text
    .split('\n')
    .filter((line) => line.startsWith('http_server_request_duration_seconds'))
    .sort();

describe('the request-duration histogram', () => {
  it('serves what the SDK histogram served for the same requests', async () => {
    const records: [number, AnsweredRequest][] = [
      [0.004, read],
      [0.005, read], // a bucket's bound is its upper bound, inclusive
      [0.0051, read],
      [0.3, read],
      [12, read], // above every bound
      [0.02, failed],
      [1.5, failed],
      [0.001, unrouted],
    ];
    const durations = new RequestDurations();
    for (const [seconds, request] of records) durations.record(seconds, request);
    const ours = await textOf(durations);
    const theirs = samplesOf(await sdkTextOf(records));
    expect(theirs.length).toBe(3 * (DURATION_BUCKETS.length + 3)); // each series: buckets, +Inf, sum, count
    expect(samplesOf(ours)).toEqual(theirs);
    expect(ours).toContain('# TYPE http_server_request_duration_seconds histogram');
    // The attributes of the semantic conventions: an error type for a 5xx, no route when none matched.
    expect(ours).toContain(
      'http_server_request_duration_seconds_count{http_request_method="POST",url_scheme="http",network_protocol_version="1.1",http_response_status_code="503",http_route="/api/orders",error_type="503",otel_scope_name="@shop/service-kit"} 2',
    );
    expect(ours).toContain(
      'http_server_request_duration_seconds_count{http_request_method="GET",url_scheme="http",network_protocol_version="1.1",http_response_status_code="404",otel_scope_name="@shop/service-kit"} 1',
    );
  });

  it('counts each series cumulatively, from one scrape to the next', async () => {
    const durations = new RequestDurations();
    durations.record(0.02, read);
    await textOf(durations);
    durations.record(0.2, read);
    const lines = samplesOf(await textOf(durations));
    expect(lines.find((line) => line.startsWith('http_server_request_duration_seconds_count'))).toMatch(
      / 2$/,
    );
    expect(lines.find((line) => line.includes('le="0.025"'))).toMatch(/ 1$/);
    expect(lines.find((line) => line.includes('le="0.25"'))).toMatch(/ 2$/);
  });

  it('keeps 2,000 series at most, the last one counting every attribute set past the limit, as the SDK does', async () => {
    const durations = new RequestDurations();
    for (let route = 0; route < 2010; route += 1) durations.record(0.01, { ...read, route: `/r/${route}` });
    const counts = samplesOf(await textOf(durations)).filter((line) => line.includes('_count'));
    expect(counts).toHaveLength(2000);
    expect(counts.find((line) => line.includes('otel_metric_overflow="true"'))).toMatch(/ 11$/);
  });

  it('serves nothing before the first request', async () => {
    expect(samplesOf(await textOf(new RequestDurations()))).toEqual([]);
  });
});
