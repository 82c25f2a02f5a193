import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type ScrapeTarget, scrapeConfig, startJaeger, startVictoriaMetrics } from '../observability.js';
import type { StackPorts } from '../ports.js';
import type { Parts } from './parts.js';

/** The trace viewer and metrics store of a stack that runs them. */
export interface StackObservability {
  /** Jaeger's query API (`/api/traces`, `/api/v3/traces`) and UI address. */
  jaegerUrl: string;
  /** The OTLP/HTTP endpoint every part exports to (OTEL_EXPORTER_OTLP_ENDPOINT). */
  otlpEndpoint: string;
  /** VictoriaMetrics: Prometheus query API under /api/v1, its UI at /vmui. */
  victoriaMetricsUrl: string;
}

/** Where Jaeger and VictoriaMetrics will answer (VictoriaMetrics' port is final once it has started). */
export function observabilityUrls(tools: StackPorts['tools']): StackObservability {
  return {
    jaegerUrl: `http://127.0.0.1:${tools.jaegerQuery}`,
    otlpEndpoint: `http://127.0.0.1:${tools.otlpHttp}`,
    victoriaMetricsUrl: `http://127.0.0.1:${tools.victoriaMetrics}`,
  };
}

interface Settings {
  parts: Parts;
  tools: StackPorts['tools'];
  dataDir: string;
  logDir: string;
  log: (line: string) => void;
}

/** Jaeger, started before the services so their first spans have somewhere to go. */
export async function startTraceViewer(observability: StackObservability, settings: Settings): Promise<void> {
  const { tools, dataDir, logDir } = settings;
  await settings.parts.keep('jaeger', () =>
    startJaeger({
      ports: { otlpHttp: tools.otlpHttp, query: tools.jaegerQuery, queryGrpc: tools.jaegerQueryGrpc },
      dir: join(dataDir, 'jaeger'),
      logFile: join(logDir, 'jaeger.log'),
    }),
  );
  settings.log(`jaeger        ${observability.jaegerUrl} (traces; OTLP in at ${observability.otlpEndpoint})`);
}

/**
 * VictoriaMetrics scraping every target, started last so the scrape configuration names the ports as
 * they were bound; sets `observability.victoriaMetricsUrl` to the port it took.
 */
export async function startMetricsStore(
  observability: StackObservability,
  targets: ScrapeTarget[],
  settings: Settings & { scrapeIntervalSeconds: number },
): Promise<void> {
  const scrapeFile = join(settings.dataDir, 'victoria-metrics-scrape.json');
  writeFileSync(
    scrapeFile,
    `${JSON.stringify(scrapeConfig(targets, settings.scrapeIntervalSeconds), null, 2)}\n`,
  );
  await settings.parts.keep('victoria-metrics', async () => {
    const run = await startVictoriaMetrics({
      port: settings.tools.victoriaMetrics,
      dataDir: join(settings.dataDir, 'victoria-metrics'),
      scrapeConfigFile: scrapeFile,
      logFile: join(settings.logDir, 'victoria-metrics.log'),
    });
    observability.victoriaMetricsUrl = `http://127.0.0.1:${run.port}`;
    return run;
  });
  settings.log(
    `metrics       ${observability.victoriaMetricsUrl}/vmui (VictoriaMetrics, every part scraped)`,
  );
}
