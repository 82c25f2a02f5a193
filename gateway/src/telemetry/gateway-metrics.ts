import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { PrometheusPlugin } from './prometheus.plugin';

// Kong 3.9's buckets (kong/plugins/prometheus/exporter.lua), so dashboards and alerts built for Kong read these.
const KONG_LATENCY_BUCKETS = [1, 2, 5, 7, 10, 15, 20, 30, 50, 75, 100, 200, 500, 750, 1000, 3000, 6000];
const UPSTREAM_LATENCY_BUCKETS = [25, 50, 80, 100, 250, 400, 700, 1000, 2000, 5000, 10000, 30000, 60000];
// The local gateway has one workspace, Kong's default one.
const WORKSPACE = 'default';

/** One address of an upstream's target and its health, for `kong_upstream_target_health`. */
export interface TargetHealthRow {
  readonly upstream: string;
  /** The target as the file names it, `host:port`. */
  readonly target: string;
  /** The address it is reached at, `host:port`. */
  readonly address: string;
  readonly state: 'healthy' | 'unhealthy' | 'healthchecks_off';
}

const TARGET_STATES = ['healthchecks_off', 'healthy', 'unhealthy', 'dns_error'] as const;

/** One finished request of a matched route, as the log phase sees it. */
export interface RouteRequestRecord {
  readonly service: string;
  readonly route: string;
  readonly status: number;
  /** `service` when the service answered, `kong` when the gateway did (404, 413, 429, 502, ...). */
  readonly source: 'service' | 'kong';
  /** Whole request, from the first byte read to the last byte written. */
  readonly requestMs: number;
  /** Waiting for the service: from sending the request to its response head; undefined when not proxied. */
  readonly upstreamMs?: number;
  readonly ingressBytes: number;
  readonly egressBytes: number;
}

type RouteChildren = {
  request: ReturnType<Histogram['labels']>;
  upstream: ReturnType<Histogram['labels']>;
  kong: ReturnType<Histogram['labels']>;
  ingress: ReturnType<Counter['labels']>;
  egress: ReturnType<Counter['labels']>;
  /** By `<code> <source>`. */
  requests: Map<string, ReturnType<Counter['labels']>>;
};

/**
 * What Kong's `prometheus` plugin exports per service and route, under Kong's names and labels
 * (`kong_http_requests_total{service,route,code,source,workspace,consumer}`, the three latency
 * histograms in ms, `kong_bandwidth_bytes`), plus the Node runtime of the gateway process.
 */
export class GatewayMetrics {
  readonly registry = new Registry();
  private readonly requests: Counter;
  private readonly requestLatency: Histogram;
  private readonly upstreamLatency: Histogram;
  private readonly kongLatency: Histogram;
  private readonly bandwidth: Counter;
  // prom-client hashes the labels on every call; a route's label sets are few, so keep their children.
  private readonly routeChildren = new Map<string, RouteChildren>();

  constructor(private readonly plugin: PrometheusPlugin) {
    const registers = [this.registry];
    this.requests = new Counter({
      name: 'kong_http_requests_total',
      help: 'HTTP status codes per consumer/service/route in Kong',
      labelNames: ['service', 'route', 'code', 'source', 'workspace', 'consumer'],
      registers,
    });
    const latency = (name: string, help: string, buckets: number[]): Histogram =>
      new Histogram({ name, help, labelNames: ['service', 'route', 'workspace'], buckets, registers });
    this.kongLatency = latency(
      'kong_kong_latency_ms',
      'Latency added by Kong and enabled plugins for each service/route in Kong',
      KONG_LATENCY_BUCKETS,
    );
    this.upstreamLatency = latency(
      'kong_upstream_latency_ms',
      'Latency added by upstream response for each service/route in Kong',
      UPSTREAM_LATENCY_BUCKETS,
    );
    this.requestLatency = latency(
      'kong_request_latency_ms',
      'Total latency incurred during requests for each service/route in Kong',
      UPSTREAM_LATENCY_BUCKETS,
    );
    this.bandwidth = new Counter({
      name: 'kong_bandwidth_bytes',
      help: 'Total bandwidth (ingress/egress) throughput in bytes',
      labelNames: ['service', 'route', 'direction', 'workspace', 'consumer'],
      registers,
    });
    collectDefaultMetrics({ register: this.registry });
  }

  /** The log phase of one request that matched a route (Kong records nothing for unmatched ones). */
  record(request: RouteRequestRecord): void {
    const { config } = this.plugin;
    const children = this.childrenOf(request.service, request.route);
    if (config.status_code_metrics) {
      const key = `${request.status} ${request.source}`;
      let counter = children.requests.get(key);
      if (!counter) {
        // Kong's label order, so the page reads like Kong's.
        counter = this.requests.labels({
          service: request.service,
          route: request.route,
          code: request.status,
          source: request.source,
          workspace: WORKSPACE,
          consumer: '',
        });
        children.requests.set(key, counter);
      }
      counter.inc();
    }
    if (config.latency_metrics) {
      children.request.observe(request.requestMs);
      if (request.upstreamMs !== undefined) children.upstream.observe(request.upstreamMs);
      children.kong.observe(Math.max(0, request.requestMs - (request.upstreamMs ?? 0)));
    }
    if (config.bandwidth_metrics) {
      if (request.ingressBytes > 0) children.ingress.inc(request.ingressBytes);
      if (request.egressBytes > 0) children.egress.inc(request.egressBytes);
    }
  }

  /**
   * Kong's `upstream_health_metrics`: per target address a series for each state, 1 for the one it is
   * in, read when the page is scraped.
   */
  watchTargets(rows: () => readonly TargetHealthRow[]): void {
    new Gauge({
      name: 'kong_upstream_target_health',
      help: 'Health status of targets of upstream. States = healthchecks_off|healthy|unhealthy|dns_error, value is 1 when state is populated.',
      labelNames: ['upstream', 'target', 'address', 'state', 'subsystem'],
      registers: [this.registry],
      collect() {
        this.reset();
        for (const row of rows()) {
          for (const state of TARGET_STATES) {
            const labels = {
              upstream: row.upstream,
              target: row.target,
              address: row.address,
              state,
              subsystem: 'http',
            };
            this.set(labels, row.state === state ? 1 : 0);
          }
        }
      },
    });
  }

  private childrenOf(service: string, route: string): RouteChildren {
    let children = this.routeChildren.get(route);
    if (!children) {
      const latency = { service, route, workspace: WORKSPACE };
      children = {
        request: this.requestLatency.labels(latency),
        upstream: this.upstreamLatency.labels(latency),
        kong: this.kongLatency.labels(latency),
        // No consumers here: with per_consumer the label is there but empty, as Kong's for anonymous calls.
        ingress: this.bandwidth.labels({
          service,
          route,
          direction: 'ingress',
          workspace: WORKSPACE,
          consumer: '',
        }),
        egress: this.bandwidth.labels({
          service,
          route,
          direction: 'egress',
          workspace: WORKSPACE,
          consumer: '',
        }),
        requests: new Map(),
      };
      this.routeChildren.set(route, children);
    }
    return children;
  }
}
