import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { observabilityWanted, repoRoot, serviceMain } from '@shop/infra';
import {
  FRONT_ENDS,
  type FrontEndName,
  type PartName,
  SERVICES,
  type ServiceName,
  stackPorts,
} from './ports.js';
import {
  FrontEnds,
  type RemoteName,
  type RemotePartName,
  type RemotesManifestShape,
} from './stack/front-ends.js';
import { startStackGateway } from './stack/gateway.js';
import { startInfrastructure } from './stack/infrastructure.js';
import { type StackMail, startMail } from './stack/mail.js';
import {
  attachWhenBuilt,
  BackgroundBuild,
  type ObservabilityBuilder,
  observabilityToolsBuilt,
  observabilityUrls,
  type StackObservability,
  startMetricsStore,
  startTraceViewer,
} from './stack/observability.js';
import { Parts } from './stack/parts.js';
import { natsClusterFromEnv, replicasFromEnv } from './stack/env.js';
import {
  ensureTokenKeys,
  type ServiceInstance,
  type ServiceInstanceName,
  serviceInstances,
  startService,
} from './stack/services.js';

export {
  databaseUrl,
  ensureTokenKeys,
  type ServiceInstance,
  type ServiceInstanceName,
  type TokenKeyFiles,
} from './stack/services.js';
export {
  remotesManifest,
  type RemoteName,
  type RemotePartName,
  type RemotesManifestShape,
} from './stack/front-ends.js';
export type { ObservabilityBuilder, StackObservability } from './stack/observability.js';
export type { StackMail } from './stack/mail.js';
/** Reads the messages of a stack's mail catcher (`stack.mail.webUrl`), for the tests. */
export { mailCatcherMessages, type CaughtMail } from '@shop/infra';
export { addressLimitsRaisedTo } from './stack/env.js';

/** The repository root (the one helper of @shop/infra). */
export const REPO_ROOT = repoRoot();

export interface StackOptions {
  /** `default`: the documented ports (npm start); `free`: any free ports (tests). */
  ports: 'default' | 'free';
  /** Keeps the database file and the NATS store here between runs; a temporary folder when absent. */
  dataDir?: string;
  /** Multiplies every gateway rate limit (load tests); logged by the gateway when not 1. */
  rateLimitFactor?: number;
  /** The gateway's port when `ports` is `default` (8000). */
  gatewayPort?: number;
  /** The routing table the gateway serves (gateway/kong.yml). */
  gatewayConfig?: string;
  /** Extra environment for every service (a test shortening the recovery windows says so here). */
  serviceEnv?: Record<string, string>;
  /**
   * OTEL_* settings for every part, the gateway included, e.g. a sampler
   * (`{ OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.1' }`).
   */
  telemetryEnv?: Record<string, string>;
  /** An existing MongoDB to use instead of the embedded one (each service gets its own database on it). */
  mongoUrl?: string;
  /** An existing NATS (with JetStream) to use instead of starting nats-server. */
  natsUrl?: string;
  /**
   * An SMTP server of your own (`smtp://user:pass@host:587`) for the users service's e-mail instead of
   * the mail catcher (npm start reads SMTP_URL into it). Without it the stack runs Mailpit (`mail`) or,
   * where it is not built, has users write `.eml` files to `outboxDir`; an SMTP_URL in the environment
   * is not passed on then, so a test never sends mail out.
   */
  smtpUrl?: string;
  /**
   * Copies of a service to run, each on its own port (the first on the service's port, the others on
   * free ones), all behind the gateway, each supervised: `{ products: 2 }`. From SHOP_REPLICAS when absent
   * (`products=2,orders=2`); one of each by default.
   */
  replicas?: Partial<Record<ServiceName, number>>;
  /**
   * nats-server nodes to run clustered on this machine instead of one server (each node its own JetStream
   * store, the events stream on up to three of them): 3 to prove the shop rides out the loss of one. From
   * SHOP_NATS_CLUSTER when absent; 1 by default. Ignored with `natsUrl`.
   */
  natsCluster?: number;
  /**
   * Restart the database, NATS and every service when they end unexpectedly, with backoff, saying so
   * through `log` (npm start does, as Kubernetes would). Parts stopped through `stopPart` stay stopped.
   */
  supervise?: boolean;
  /**
   * Runs Jaeger and VictoriaMetrics beside the shop, every part sending its spans to Jaeger and scraped by
   * VictoriaMetrics (docs/observability.md). On unless SHOP_OBSERVABILITY is 0; off, the parts export
   * nothing unless OTEL_EXPORTER_OTLP_ENDPOINT in the environment names a collector of your own.
   */
  observability?: boolean;
  /**
   * When Jaeger or VictoriaMetrics is not built yet: `wait` (the default) builds both before the shop
   * starts, as tests that read traces need; `background` starts the shop at once and builds them in a
   * niced process of its own, then starts them (npm start's first run: `observability.building`,
   * `observability.running`). The parts send spans to Jaeger's address from the start; until it listens
   * their exporter drops them quietly.
   */
  observabilityBuild?: 'wait' | 'background';
  /** What builds them in the background (libs/infra/ensure-tools.mjs --observability); a test's stand-in. */
  observabilityBuilder?: ObservabilityBuilder;
  /** The services to run (every built one by default); the gateway still routes to all of them. */
  only?: ServiceName[];
  /** How often VictoriaMetrics scrapes every part (5 s). */
  scrapeIntervalSeconds?: number;
  /**
   * vmalert evaluates the shipped alert rules this many times faster: every window, `for` and interval
   * divided by it (1, the default, as shipped; a test of an alert shortens them, docs/observability.md).
   */
  alertsSpeedup?: number;
  log?: (line: string) => void;
}

export interface RunningStack {
  /** The gateway's URL: the whole shop. */
  url: string;
  ports: Record<PartName, number>;
  /** The services that were built and started. */
  services: ServiceName[];
  /** What every service's NATS_URL says: one server, or every node of the cluster, comma-separated. */
  natsUrl: string;
  /** Every running copy of every service, with its ports (one each unless `replicas` asked for more). */
  instances: ServiceInstance[];
  logDir: string;
  /**
   * Where the users service writes e-mail (`.eml` files) when it has no SMTP server: no mail catcher
   * (`mail` absent: Mailpit is not built) and no `smtpUrl`.
   */
  outboxDir: string;
  /** The mail catcher every message the shop sends goes to, when the stack runs one. */
  mail?: StackMail;
  /** Each service's and the gateway's Prometheus endpoint (`http://127.0.0.1:<port>/metrics`). */
  metricsUrls: Record<ServiceName | 'gateway', string>;
  /** Jaeger and VictoriaMetrics, when the stack runs them. */
  observability?: StackObservability;
  /** The process id of the database, NATS or a service now (it changes when a supervisor restarts it). */
  pidOf(name: ServiceInstanceName | 'mongo' | 'nats' | `nats-${number}`): number | undefined;
  /**
   * Stops one part (to show the rest copes) and starts it again. A front-end starts serving the build in
   * `dir` (its own dist by default) alone, and a remote started so is named in remotes.json at once.
   */
  stopPart(name: ServiceInstanceName | FrontEndName): Promise<void>;
  startPart(name: ServiceInstanceName | FrontEndName, options?: { dir?: string }): Promise<void>;
  /**
   * Deploy, step one: serves the build in `dir` beside the versions a remote already serves, without a
   * restart; answers its version. Nothing uses it until `pointRemotes` names it.
   */
  publish(name: RemotePartName, dir: string): Promise<string>;
  /**
   * Deploy, step two (and rollback): rewrites the shell's remotes.json to name these versions (the others
   * stay as they are), in the current shape (schema 2) or the flat one shells before it read.
   */
  pointRemotes(versions: Partial<Record<RemoteName, string>>, shape?: RemotesManifestShape): void;
  stop(): Promise<void>;
}

/**
 * Starts the whole shop: database, NATS with JetStream, the mail catcher, (Jaeger,) every built service,
 * the front-ends' static servers and the gateway in front of them, (VictoriaMetrics,) in that order,
 * each waited for.
 * With `observabilityBuild: 'background'` and either tool not built yet, their build starts first and
 * they start once it is done, while the shop runs.
 */
export async function startStack(options: StackOptions): Promise<RunningStack> {
  const log = options.log ?? (() => undefined);
  const temporary = options.dataDir ? undefined : mkdtempSync(join(tmpdir(), 'shop-stack-'));
  const dataDir = options.dataDir ?? temporary!;
  const logDir = join(dataDir, 'logs');
  mkdirSync(logDir, { recursive: true });
  mkdirSync(join(dataDir, 'mongo'), { recursive: true });

  const ports = await stackPorts(options.ports, options.gatewayPort);
  const services = (options.only ?? SERVICES).filter((name) => existsSync(serviceMain(name)));
  const instances = await serviceInstances(services, ports, options.replicas ?? replicasFromEnv());
  const natsNodes = options.natsCluster ?? natsClusterFromEnv();
  const metricsUrls = {} as Record<ServiceName | 'gateway', string>;
  for (const name of SERVICES) metricsUrls[name] = `http://127.0.0.1:${ports.metrics[name]}/metrics`;
  metricsUrls.gateway = `http://127.0.0.1:${ports.tools.gatewayStatus}/metrics`;
  const observability =
    (options.observability ?? observabilityWanted()) ? observabilityUrls(ports.tools) : undefined;

  const build =
    observability && options.observabilityBuild === 'background' && !observabilityToolsBuilt()
      ? BackgroundBuild.start(options.observabilityBuilder, logDir, log)
      : undefined;

  const parts = new Parts({ supervise: options.supervise, log });
  let stopping = false;
  const stop = async () => {
    stopping = true;
    parts.holdRestarts();
    await build?.stop();
    await observability?.running.catch(() => undefined);
    await parts.stopAll();
    if (temporary) rmSync(temporary, { recursive: true, force: true });
  };
  const tools = { parts, tools: ports.tools, dataDir, logDir, log };

  try {
    const { mongoUrl, natsUrl } = await startInfrastructure({
      parts,
      ports: ports.parts,
      dataDir,
      logDir,
      durable: options.dataDir !== undefined,
      mongoUrl: options.mongoUrl,
      natsUrl: options.natsUrl,
      natsNodes,
      log,
    });
    const outboxDir = join(dataDir, 'outbox');
    const mail = await startMail({
      parts,
      ports: ports.mail,
      dataDir,
      logDir,
      outboxDir,
      smtpUrl: options.smtpUrl,
      log,
    });
    if (observability && !build) await startTraceViewer(observability, tools);

    const settings = {
      mongoUrl,
      natsUrl,
      keys: ensureTokenKeys(dataDir),
      outboxDir,
      smtpUrl: mail.smtpUrl,
      logDir,
      otlpEndpoint: observability?.otlpEndpoint,
      streamReplicas: options.natsUrl ? undefined : Math.min(natsNodes, 3),
      flagsSource: services.includes('data') ? `grpc://127.0.0.1:${ports.flagsSync}` : undefined,
      extraEnv: { ...options.serviceEnv, ...options.telemetryEnv },
    };
    const startInstance = async (instance: ServiceInstance) => {
      await parts.keep(instance.name, () => startService(instance, settings));
      log(
        `${instance.name.padEnd(13)} http://127.0.0.1:${instance.port} (metrics http://127.0.0.1:${instance.metricsPort}/metrics)`,
      );
    };
    await Promise.all(instances.map(startInstance));

    const frontEnds = new FrontEnds({
      dataDir,
      ports: ports.parts,
      parts,
      log,
      apiUrl: `http://127.0.0.1:${ports.parts.gateway}`,
      natsUrl,
      // The render service reads it as services read theirs: from the environment given to every part.
      renderCacheFreshMs: Number(options.serviceEnv?.['RENDER_CACHE_FRESH_MS']) || undefined,
    });
    // Remotes first: each names its version in remotes.json before the shell serves it.
    for (const name of [...FRONT_ENDS].reverse()) await frontEnds.start(name);

    const upstreams: Record<string, string[]> = {};
    for (const name of FRONT_ENDS) upstreams[name] = [`127.0.0.1:${ports.parts[name]}`];
    for (const name of SERVICES) upstreams[name] = [`127.0.0.1:${ports.parts[name]}`];
    for (const instance of instances.filter((each) => each.name !== each.service)) {
      upstreams[instance.service]!.push(`127.0.0.1:${instance.port}`);
    }
    const gateway = await startStackGateway({
      parts,
      port: ports.parts.gateway,
      host: options.ports === 'default' ? '0.0.0.0' : '127.0.0.1',
      upstreams,
      configPath: options.gatewayConfig,
      rateLimitFactor: options.rateLimitFactor ?? 1,
      statusPort: ports.tools.gatewayStatus,
      logDir,
      otlpEndpoint: observability?.otlpEndpoint,
      telemetryEnv: options.telemetryEnv,
    });
    if (gateway.statusUrl) metricsUrls.gateway = `${gateway.statusUrl}/metrics`;

    if (observability) {
      const targets = [
        ...instances.map((each) => ({ job: each.service, address: `127.0.0.1:${each.metricsPort}` })),
        { job: 'gateway', address: new URL(metricsUrls.gateway).host },
      ];
      const settings = {
        ...tools,
        scrapeIntervalSeconds: options.scrapeIntervalSeconds ?? 5,
        alertsSpeedup: options.alertsSpeedup,
      };
      if (build) attachWhenBuilt(build, observability, targets, { ...settings, stopping: () => stopping });
      else await startMetricsStore(observability, targets, settings);
    }

    const instanceNamed = (name: string) => instances.find((each) => each.name === name);
    return {
      url:
        options.ports === 'default'
          ? `http://localhost:${ports.parts.gateway}`
          : `http://127.0.0.1:${ports.parts.gateway}`,
      ports: ports.parts,
      services,
      natsUrl,
      instances,
      logDir,
      outboxDir,
      mail: mail.catcher,
      metricsUrls,
      observability,
      stop,
      pidOf: (name) => parts.pidOf(name),
      stopPart: (name) => parts.stop(name),
      async startPart(name, partOptions) {
        const instance = instanceNamed(name);
        if (instance) await startInstance(instance);
        else await frontEnds.start(name as FrontEndName, partOptions?.dir);
      },
      publish: (name, dir) => frontEnds.publish(name, dir),
      pointRemotes: (versions, shape) => frontEnds.pointRemotes(versions, shape),
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
