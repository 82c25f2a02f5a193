import { type Attributes, type HrTime, ValueType } from '@opentelemetry/api';
import { hrTime } from '@opentelemetry/core';
import { emptyResource } from '@opentelemetry/resources';
import {
  AggregationTemporality,
  type CollectionResult,
  type DataPoint,
  DataPointType,
  type Histogram,
  type MetricProducer,
} from '@opentelemetry/sdk-metrics';

/** The buckets OpenTelemetry's HTTP semantic conventions advise for `http.server.request.duration`. */
export const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];

/** The SDK's cardinality limit: 2,000 series per metric, the last of them the overflow series. */
const MAX_SERIES = 2000;

/** What one answered request says of itself in the histogram. */
export interface AnsweredRequest {
  method: string;
  scheme: string;
  protocolVersion: string;
  status: number;
  /** The route's pattern (`/api/products/:id`); undefined when no route matched. */
  route: string | undefined;
}

interface Series {
  attributes: Attributes;
  counts: number[];
  sum: number;
  count: number;
  min: number;
  max: number;
}

/**
 * `http.server.request.duration`, cumulative, under the name, unit, buckets and attributes of the HTTP
 * semantic conventions, handed to the metric reader as a producer of its own.
 *
 * The SDK's histogram found a request's series by sorting and serialising its attributes on every
 * record, the largest share of what the SDK cost a cached read with nothing exported (a CPU profile of
 * products, docs/performance.md). Here a request's series is found by a key of its five values, and its
 * attributes are written once, with the series.
 */
export class RequestDurations implements MetricProducer {
  private readonly startTime: HrTime = hrTime();
  private readonly series = new Map<string, Series>();
  /** Where every attribute set past the limit is counted, as the SDK names it. */
  private overflow?: Series;

  record(seconds: number, request: AnsweredRequest): void {
    const key = `${request.method} ${request.status} ${request.scheme} ${request.protocolVersion} ${request.route ?? ''}`;
    let series = this.series.get(key);
    if (!series && this.series.size < MAX_SERIES - 1) {
      series = newSeries(durationAttributes(request));
      this.series.set(key, series);
    }
    series ??= this.overflow ??= newSeries({ 'otel.metric.overflow': true });
    let bucket = 0;
    while (bucket < DURATION_BUCKETS.length && seconds > DURATION_BUCKETS[bucket]!) bucket += 1;
    series.counts[bucket]! += 1;
    series.sum += seconds;
    series.count += 1;
    if (seconds < series.min) series.min = seconds;
    if (seconds > series.max) series.max = seconds;
  }

  async collect(): Promise<CollectionResult> {
    const endTime = hrTime();
    const all = this.overflow ? [...this.series.values(), this.overflow] : [...this.series.values()];
    const dataPoints: DataPoint<Histogram>[] = all.map((series) => ({
      startTime: this.startTime,
      endTime,
      attributes: series.attributes,
      value: {
        buckets: { boundaries: DURATION_BUCKETS, counts: [...series.counts] },
        sum: series.sum,
        count: series.count,
        min: series.min,
        max: series.max,
      },
    }));
    return {
      resourceMetrics: {
        // The reader reports the SDK's resource for every producer.
        resource: emptyResource(),
        scopeMetrics:
          dataPoints.length === 0
            ? []
            : [
                {
                  scope: { name: '@shop/service-kit' },
                  metrics: [
                    {
                      descriptor: {
                        name: 'http.server.request.duration',
                        description: 'Duration of HTTP server requests.',
                        unit: 's',
                        valueType: ValueType.DOUBLE,
                      },
                      aggregationTemporality: AggregationTemporality.CUMULATIVE,
                      dataPointType: DataPointType.HISTOGRAM,
                      dataPoints,
                    },
                  ],
                },
              ],
      },
      errors: [],
    };
  }
}

function newSeries(attributes: Attributes): Series {
  return {
    attributes,
    counts: new Array<number>(DURATION_BUCKETS.length + 1).fill(0),
    sum: 0,
    count: 0,
    min: Infinity,
    max: -Infinity,
  };
}

/** The semantic conventions' attributes of a request: an error type for a 5xx, no route when none matched. */
export function durationAttributes(request: AnsweredRequest): Attributes {
  return {
    'http.request.method': request.method,
    'url.scheme': request.scheme,
    'network.protocol.version': request.protocolVersion,
    'http.response.status_code': request.status,
    ...(request.route ? { 'http.route': request.route } : {}),
    ...(request.status >= 500 ? { 'error.type': String(request.status) } : {}),
  };
}
