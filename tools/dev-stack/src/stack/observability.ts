import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, writeFileSync } from 'node:fs';
import { setPriority } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { repoRoot, toolPaths } from '@shop/infra';
import { startVmalert } from '../alerts.js';
import { type ScrapeTarget, scrapeConfig, startJaeger, startVictoriaMetrics } from '../observability.js';
import { describeExit } from '../supervisor.js';
import type { StackPorts } from '../ports.js';
import type { Parts } from './parts.js';

/** The trace viewer and metrics store of a stack that runs them. */
export interface StackObservability {
  /** Jaeger's query API (`/api/traces`, `/api/v3/traces`) and UI address. */
  jaegerUrl: string;
  /** The OTLP/HTTP endpoint every part exports to (OTEL_EXPORTER_OTLP_ENDPOINT). */
  otlpEndpoint: string;
  /** VictoriaMetrics: Prometheus query API under /api/v1, its UI at /vmui (final once it runs). */
  victoriaMetricsUrl: string;
  /** vmalert on the shipped alert rules: `/api/v1/alerts`, its UI at /vmalert (final once it runs). */
  alertsUrl: string;
  /**
   * Resolves once both run: when the stack starts, if they were built before; else once the stack has
   * built them in the background and started them (`observabilityBuild: 'background'`). Rejects when
   * that fails or the stack stops first: the shop runs on without them.
   */
  running: Promise<void>;
  /** Whether they were still being built when the stack answered (npm start's first run says so). */
  building: boolean;
}

/** Where Jaeger and VictoriaMetrics will answer (VictoriaMetrics' port is final once it has started). */
export function observabilityUrls(tools: StackPorts['tools']): StackObservability {
  return {
    jaegerUrl: `http://127.0.0.1:${tools.jaegerQuery}`,
    otlpEndpoint: `http://127.0.0.1:${tools.otlpHttp}`,
    victoriaMetricsUrl: `http://127.0.0.1:${tools.victoriaMetrics}`,
    alertsUrl: `http://127.0.0.1:${tools.vmalert}`,
    running: Promise.resolve(),
    building: false,
  };
}

/** Whether Jaeger and VictoriaMetrics are both in the tools folder (SHOP_TOOLS_DIR) already. */
export function observabilityToolsBuilt(): boolean {
  const { jaeger, victoriaMetrics, vmalert } = toolPaths();
  return existsSync(jaeger) && existsSync(victoriaMetrics) && existsSync(vmalert);
}

/** A command that builds Jaeger and VictoriaMetrics into the tools folder and exits 0 once both are there. */
export interface ObservabilityBuilder {
  command: string;
  args: string[];
}

/** The installer, asked for those two only: one Go build after the other, each staged and moved into place. */
export function defaultObservabilityBuilder(): ObservabilityBuilder {
  const script = join(repoRoot(), 'libs', 'infra', 'ensure-tools.mjs');
  return { command: process.execPath, args: [script, '--observability'] };
}

/** How much lower than the shop's own processes the background build runs (nice). */
const BUILD_NICENESS = 10;
const KEEPER = fileURLToPath(new URL('./build-keeper.cjs', import.meta.url));

/**
 * The build of Jaeger and VictoriaMetrics while the shop starts and runs: a process group of its own
 * (stopping it reaches the Go compiler under the installer), niced so the shop's parts come first,
 * everything it says in `logFile` and its progress lines (what it builds, its estimate, when it is
 * ready) on the console.
 */
export class BackgroundBuild {
  /** Resolves when the build exits 0; rejects with how it ended otherwise. */
  readonly done: Promise<void>;
  readonly pid: number;
  private readonly closed: Promise<void>;

  /** Starts `builder` (the installer by default), its output in `<logDir>/observability-build.log`. */
  static start(
    builder: ObservabilityBuilder | undefined,
    logDir: string,
    log: (line: string) => void,
  ): BackgroundBuild {
    log('traces and metrics: building (first run only)…; the shop starts meanwhile');
    return new BackgroundBuild(
      builder ?? defaultObservabilityBuilder(),
      join(logDir, 'observability-build.log'),
      log,
    );
  }

  constructor(
    builder: ObservabilityBuilder,
    readonly logFile: string,
    log: (line: string) => void,
  ) {
    // Through its keeper (build-keeper.cjs), which leads the group and ends it when this process is gone;
    // its stdin is this process's to hold, never written.
    const child = spawn(process.execPath, [KEEPER, builder.command, ...builder.args], {
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.pid = child.pid ?? -1;
    try {
      setPriority(this.pid, BUILD_NICENESS);
    } catch {
      // Not started (the error below says so), or a system that refuses: the build runs at normal priority.
    }
    const file = createWriteStream(logFile, { flags: 'a' });
    createInterface({ input: child.stdout }).on('line', (line) => {
      file.write(`${line}\n`);
      log(line.replace(/^ensure-tools: /, ''));
    });
    child.stderr.pipe(file, { end: false });
    this.closed = new Promise((resolve) =>
      child.once('close', () => {
        file.end();
        resolve();
      }),
    );
    this.done = new Promise((resolve, reject) => {
      child.once('error', (error) => reject(new Error(`cannot run ${builder.command}: ${error.message}`)));
      child.once('close', (code, signal) =>
        code === 0 ? resolve() : reject(new Error(`the build ended with ${describeExit({ code, signal })}`)),
      );
    });
    this.done.catch(() => undefined);
  }

  /** Stops the build and everything it started (SIGTERM, SIGKILL after 5 s); resolves once it is gone. */
  async stop(): Promise<void> {
    if (this.pid <= 0) return;
    this.signal('SIGTERM');
    const timer = setTimeout(() => this.signal('SIGKILL'), 5_000);
    await this.closed;
    clearTimeout(timer);
  }

  private signal(signal: NodeJS.Signals): void {
    try {
      process.kill(-this.pid, signal);
    } catch {
      // The group is gone already.
    }
  }
}

/**
 * Starts Jaeger, then VictoriaMetrics scraping `targets`, once `build` is done, unless the stack is
 * stopping by then; says when they run, or why they do not (the shop runs on without them). Sets
 * `observability.building` and `running`, which settles when this is over; the stack's stop waits for
 * it and then stops what it started with the other parts.
 */
export function attachWhenBuilt(
  build: BackgroundBuild,
  observability: StackObservability,
  targets: ScrapeTarget[],
  settings: Settings & { scrapeIntervalSeconds: number; alertsSpeedup?: number; stopping: () => boolean },
): void {
  const stopped = () => new Error('the stack stopped before Jaeger and VictoriaMetrics ran');
  observability.building = true;
  observability.running = (async () => {
    try {
      await build.done;
      if (settings.stopping()) throw stopped();
      await startTraceViewer(observability, settings);
      if (settings.stopping()) throw stopped();
      await startMetricsStore(observability, targets, settings);
      observability.building = false;
    } catch (error) {
      if (!settings.stopping()) {
        const why = error instanceof Error ? error.message.split('\n')[0] : String(error);
        settings.log(`✗ traces and metrics: ${why} (${build.logFile}); the shop runs on without them`);
      }
      throw error;
    }
  })();
  // Whoever asks for `running` hears how it ended; nobody asking is no unhandled rejection.
  observability.running.catch(() => undefined);
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
  settings: Settings & { scrapeIntervalSeconds: number; alertsSpeedup?: number },
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
  const speedup = settings.alertsSpeedup ?? 1;
  await settings.parts.keep('vmalert', async () => {
    const run = await startVmalert({
      victoriaMetricsUrl: observability.victoriaMetricsUrl,
      port: settings.tools.vmalert,
      dir: join(settings.dataDir, 'vmalert'),
      logFile: join(settings.logDir, 'vmalert.log'),
      speedup,
    });
    observability.alertsUrl = `http://127.0.0.1:${run.port}`;
    return run;
  });
  settings.log(
    `alerts        ${observability.alertsUrl}/vmalert (vmalert, the shipped alert rules${speedup === 1 ? '' : `, every window ${speedup} times shorter`})`,
  );
}
