// The trace viewer and the metrics store the stack runs beside the shop: Jaeger v2 all-in-one
// (OTLP receiver, in-memory store, query API) and VictoriaMetrics (scrapes every part's /metrics). Both
// are built and cached by libs/infra/ensure-tools.mjs; SHOP_OBSERVABILITY=0 leaves them out.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureToolsInstalled, type ManagedProcess, repoRoot, startProcess, toolPaths } from '@shop/infra';

// Whether the stack runs Jaeger and VictoriaMetrics: yes unless SHOP_OBSERVABILITY is 0, false, off or no.
export { observabilityWanted } from '@shop/infra';

export interface JaegerPorts {
  /** OTLP over HTTP (http/protobuf and JSON): where every part sends its spans. */
  otlpHttp: number;
  /** The query API (`/api/traces`, `/api/v3/...`) and the UI's address. */
  query: number;
  /** The query service's gRPC API (Jaeger opens it whatever we use). */
  queryGrpc: number;
}

/**
 * Jaeger's configuration (an OpenTelemetry Collector configuration; JSON is YAML): OTLP/HTTP in, the
 * in-memory store, the query extension; loopback only, no gRPC receiver, no telemetry port of its own
 * (two stacks on one machine would fight for its fixed 8888). Its page is the shop's trace viewer
 * (tools/dev-stack/trace-viewer): the module Jaeger is built from carries only a placeholder where its UI goes.
 */
export function jaegerConfig(ports: JaegerPorts, maxTraces = 50_000): unknown {
  const loopback = (port: number) => ({ endpoint: `127.0.0.1:${port}` });
  return {
    service: {
      extensions: ['jaeger_storage', 'jaeger_query'],
      pipelines: {
        traces: { receivers: ['otlp'], processors: ['batch'], exporters: ['jaeger_storage_exporter'] },
      },
      telemetry: {
        resource: { 'service.name': 'jaeger' },
        metrics: { level: 'none' },
        logs: { level: 'info' },
      },
    },
    extensions: {
      jaeger_storage: { backends: { memstore: { memory: { max_traces: maxTraces } } } },
      jaeger_query: {
        storage: { traces: 'memstore' },
        ui: { assets_path: join(repoRoot(), 'tools', 'dev-stack', 'trace-viewer') },
        http: loopback(ports.query),
        grpc: loopback(ports.queryGrpc),
      },
    },
    receivers: { otlp: { protocols: { http: loopback(ports.otlpHttp) } } },
    processors: { batch: {} },
    exporters: { jaeger_storage_exporter: { trace_storage: 'memstore' } },
  };
}

/** A part whose /metrics VictoriaMetrics scrapes: its job name and its `host:port`. */
export interface ScrapeTarget {
  job: string;
  address: string;
}

/**
 * A Prometheus scrape configuration (JSON is YAML) naming every part, each under its own job; the
 * replicas of one service are targets of its job (told apart by their `instance` label).
 */
export function scrapeConfig(targets: ScrapeTarget[], intervalSeconds: number): unknown {
  const jobs = new Map<string, string[]>();
  for (const { job, address } of targets) jobs.set(job, [...(jobs.get(job) ?? []), address]);
  return {
    global: {
      scrape_interval: `${intervalSeconds}s`,
      scrape_timeout: `${Math.max(1, intervalSeconds - 1)}s`,
    },
    scrape_configs: [...jobs].map(([job, addresses]) => ({
      job_name: job,
      metrics_path: '/metrics',
      static_configs: [{ targets: addresses }],
    })),
  };
}

/** Starts Jaeger with the configuration above, written into `dir`; resolves once it takes spans. */
export async function startJaeger(options: {
  ports: JaegerPorts;
  dir: string;
  logFile: string;
}): Promise<ManagedProcess> {
  ensureToolsInstalled({ observability: true });
  mkdirSync(options.dir, { recursive: true });
  const configFile = join(options.dir, 'jaeger.json');
  writeFileSync(configFile, `${JSON.stringify(jaegerConfig(options.ports), null, 2)}\n`);
  const { ready: _, ...jaeger } = await startProcess({
    name: 'Jaeger',
    command: toolPaths().jaeger,
    args: ['--config', `file:${configFile}`],
    // The collector says so once its extensions and every pipeline have started.
    readyWhen: (line) => (line.includes('Everything is ready') ? true : undefined),
    timeoutMs: 30_000,
    logFile: options.logFile,
    signalOnExit: 'SIGTERM',
  });
  return jaeger;
}

/** The port a VictoriaMetrics program (the store, vmalert) says it listens on, from its log line. */
export function listeningPort(line: string): number | undefined {
  const started = /started server at http:\/\/[^/]*:(\d+)\//.exec(line);
  return started ? Number(started[1]) : undefined;
}

/**
 * Starts VictoriaMetrics storing under `dataDir`, scraping what `scrapeConfigFile` lists; `port` 0 lets
 * it pick a free one, answered as `port`.
 */
export async function startVictoriaMetrics(options: {
  port: number;
  dataDir: string;
  scrapeConfigFile: string;
  logFile: string;
  retention?: string;
}): Promise<ManagedProcess & { port: number }> {
  ensureToolsInstalled({ observability: true });
  mkdirSync(options.dataDir, { recursive: true });
  const { ready: port, ...victoriaMetrics } = await startProcess({
    name: 'VictoriaMetrics',
    command: toolPaths().victoriaMetrics,
    args: [
      `-httpListenAddr=127.0.0.1:${options.port}`,
      `-storageDataPath=${options.dataDir}`,
      `-retentionPeriod=${options.retention ?? '7d'}`,
      `-promscrape.config=${options.scrapeConfigFile}`,
      // A target that is down (a part being restarted) is normal here: say it once, not every scrape.
      '-promscrape.suppressScrapeErrors',
      // Queries hide the last 30 s by default (samples still arriving in a cluster); one machine scraping
      // every few seconds wants what was just scraped, as a test after known traffic does.
      '-search.latencyOffset=1s',
    ],
    readyWhen: listeningPort,
    timeoutMs: 30_000,
    logFile: options.logFile,
    signalOnExit: 'SIGTERM',
  });
  return { ...victoriaMetrics, port };
}
