import { generateKeyPairSync } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startGateway } from '@shop/gateway';
import pino from 'pino';
import { freePort, startEmbeddedMongo, startEmbeddedNats } from '@shop/testing';
import { type ManagedProcess, startNodeProcess, waitUntilReady } from './child-process.js';
import {
  observabilityWanted,
  type ScrapeTarget,
  scrapeConfig,
  startJaeger,
  startVictoriaMetrics,
} from './observability.js';
import {
  DEFAULT_METRICS_PORTS,
  DEFAULT_OBSERVABILITY_PORTS,
  DEFAULT_PORTS,
  FRONT_ENDS,
  type FrontEndName,
  type PartName,
  SERVICES,
  type ServiceName,
} from './ports.js';
import { describeBuild, serveStatic, type StaticServer } from './serve-static.mjs';
import { type PartRun, supervise } from './supervisor.js';

/** The repository root, found from this file (tools/src or tools/dist). */
export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

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
  /** An existing MongoDB to use instead of the embedded one (each service gets its own database on it). */
  mongoUrl?: string;
  /** An existing NATS (with JetStream) to use instead of starting nats-server. */
  natsUrl?: string;
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
  /** How often VictoriaMetrics scrapes every part (5 s). */
  scrapeIntervalSeconds?: number;
  log?: (line: string) => void;
}

/** The trace viewer and metrics store of a stack that runs them. */
export interface StackObservability {
  /** Jaeger's query API (`/api/traces`, `/api/v3/traces`) and UI address. */
  jaegerUrl: string;
  /** The OTLP/HTTP endpoint every part exports to (OTEL_EXPORTER_OTLP_ENDPOINT). */
  otlpEndpoint: string;
  /** VictoriaMetrics: Prometheus query API under /api/v1, its UI at /vmui. */
  victoriaMetricsUrl: string;
}

interface StoppablePart {
  stop(): Promise<void>;
  pid?: () => number | undefined;
}

export interface RunningStack {
  /** The gateway's URL: the whole shop. */
  url: string;
  ports: Record<PartName, number>;
  /** The services that were built and started. */
  services: ServiceName[];
  logDir: string;
  /** Where the users service writes e-mail (`.eml` files) when no SMTP server is configured. */
  outboxDir: string;
  /** Each service's and the gateway's Prometheus endpoint (`http://127.0.0.1:<port>/metrics`). */
  metricsUrls: Record<ServiceName | 'gateway', string>;
  /** Jaeger and VictoriaMetrics, when the stack runs them. */
  observability?: StackObservability;
  /** The process id of the database, NATS or a service now (it changes when a supervisor restarts it). */
  pidOf(name: ServiceName | 'mongo' | 'nats'): number | undefined;
  /**
   * Stops one part (to show the rest copes) and starts it again. A front-end starts serving the build in
   * `dir` (its own dist by default) alone, and a remote started so is named in remotes.json at once.
   */
  stopPart(name: ServiceName | FrontEndName): Promise<void>;
  startPart(name: ServiceName | FrontEndName, options?: { dir?: string }): Promise<void>;
  /**
   * Deploy, step one: serves the build in `dir` beside the versions a remote already serves, without a
   * restart; answers its version. Nothing uses it until `pointRemotes` names it.
   */
  publish(name: RemotePartName, dir: string): string;
  /**
   * Deploy, step two (and rollback): rewrites the shell's remotes.json to name these versions (the others
   * stay as they are), in the current shape (schema 2) or the flat one shells before it read.
   */
  pointRemotes(versions: Partial<Record<RemoteName, string>>, shape?: RemotesManifestShape): void;
  stop(): Promise<void>;
}

/** The remotes the shell names in remotes.json, by their part. */
const REMOTE_OF_PART = { 'mf-catalog': 'catalog', 'mf-checkout': 'checkout', 'mf-admin': 'admin' } as const;
export type RemotePartName = keyof typeof REMOTE_OF_PART;
export type RemoteName = (typeof REMOTE_OF_PART)[RemotePartName];

/**
 * `schema-2`: `{ schemaVersion: 2, remotes: { catalog: { version, url } } }` (docs/decisions/0011);
 * `flat`: `{ catalog: url }`, the only shape shells before it read.
 */
export type RemotesManifestShape = 'schema-2' | 'flat';

/** The document the shell reads at /remotes.json, naming each remote's version behind the gateway. */
export function remotesManifest(
  versions: Partial<Record<RemoteName, string>>,
  shape: RemotesManifestShape = 'schema-2',
): unknown {
  const entries = Object.entries(versions).map(([remote, version]) => {
    const url = `/remotes/${remote}/${version}/mf-manifest.json`;
    return [remote, shape === 'flat' ? url : { version, url }] as const;
  });
  return shape === 'flat'
    ? Object.fromEntries(entries)
    : { schemaVersion: 2, remotes: Object.fromEntries(entries) };
}

function frontEndDist(name: FrontEndName): string {
  return join(REPO_ROOT, name, 'dist');
}

function serviceMain(name: ServiceName): string {
  return join(REPO_ROOT, 'services', name, 'dist', 'main.js');
}

/** The service's own database on a MongoDB URL: `mongodb://h:27017/?x=y` → `mongodb://h:27017/orders?x=y`. */
export function databaseUrl(mongoUrl: string, database: string): string {
  const url = new URL(mongoUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

/** A URL fit for the console: no password. */
function redactCredentials(serverUrl: string): string {
  const url = new URL(serverUrl);
  if (url.password) url.password = '***';
  return url.toString();
}

/** The token key files the stack gives the services. */
export interface TokenKeyFiles {
  privateKeyFile: string;
  publicKeyFile: string;
}

/**
 * The local Ed25519 pair that signs (users) and verifies (every service) tokens, generated into
 * `<dataDir>/keys/` on first start and kept there, the private key readable by its owner only.
 * Production never uses these: it reads its keys from secrets (docs/decisions/0005-identity.md).
 */
export function ensureTokenKeys(dataDir: string): TokenKeyFiles {
  const dir = join(dataDir, 'keys');
  const privateKeyFile = join(dir, 'jwt-private.pem');
  const publicKeyFile = join(dir, 'jwt-public.pem');
  if (!existsSync(privateKeyFile) || !existsSync(publicKeyFile)) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    writeFileSync(privateKeyFile, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
    chmodSync(privateKeyFile, 0o600);
    writeFileSync(publicKeyFile, publicKey.export({ type: 'spki', format: 'pem' }), { mode: 0o644 });
  }
  return { privateKeyFile, publicKeyFile };
}

/**
 * Starts the whole shop: database, NATS with JetStream, every built service, the front-ends'
 * static servers and the gateway in front of them, in that order, each waited for.
 */
export async function startStack(options: StackOptions): Promise<RunningStack> {
  const log = options.log ?? (() => undefined);
  const temporary = options.dataDir ? undefined : mkdtempSync(join(tmpdir(), 'shop-stack-'));
  const dataDir = options.dataDir ?? temporary!;
  const logDir = join(dataDir, 'logs');
  mkdirSync(logDir, { recursive: true });
  mkdirSync(join(dataDir, 'mongo'), { recursive: true });

  const ports = {} as Record<PartName, number>;
  for (const part of Object.keys(DEFAULT_PORTS) as PartName[]) {
    ports[part] = options.ports === 'default' ? DEFAULT_PORTS[part] : await freePort();
  }
  if (options.gatewayPort !== undefined) ports.gateway = options.gatewayPort;
  // Set explicitly, free ports included: a free PORT + 6000 may be taken, or past 65535.
  const metricsPorts = {} as Record<ServiceName, number>;
  for (const name of SERVICES) {
    metricsPorts[name] = options.ports === 'default' ? DEFAULT_METRICS_PORTS[name] : await freePort();
  }
  const toolPorts: Record<keyof typeof DEFAULT_OBSERVABILITY_PORTS, number> = {
    ...DEFAULT_OBSERVABILITY_PORTS,
  };
  if (options.ports === 'free') {
    for (const name of Object.keys(toolPorts) as (keyof typeof toolPorts)[])
      toolPorts[name] = await freePort();
    // Bound last of all, long after a free port was found: these two pick their own (0) instead.
    toolPorts.gatewayStatus = 0;
    toolPorts.victoriaMetrics = 0;
  }
  const observe = options.observability ?? observabilityWanted();
  const metricsUrls = {} as Record<ServiceName | 'gateway', string>;
  for (const name of SERVICES) metricsUrls[name] = `http://127.0.0.1:${metricsPorts[name]}/metrics`;
  metricsUrls.gateway = `http://127.0.0.1:${toolPorts.gatewayStatus}/metrics`;
  const observability: StackObservability | undefined = observe
    ? {
        jaegerUrl: `http://127.0.0.1:${toolPorts.jaegerQuery}`,
        otlpEndpoint: `http://127.0.0.1:${toolPorts.otlpHttp}`,
        victoriaMetricsUrl: `http://127.0.0.1:${toolPorts.victoriaMetrics}`,
      }
    : undefined;

  const running = new Map<string, StoppablePart>();
  const order: string[] = [];
  const remember = (name: string, part: StoppablePart) => {
    running.set(name, part);
    if (!order.includes(name)) order.push(name);
  };

  // Set first thing on the way out, so no supervisor restarts a part that ended with the rest.
  let shuttingDown = false;
  const stop = async () => {
    shuttingDown = true;
    for (const name of [...order].reverse()) {
      await running
        .get(name)
        ?.stop()
        .catch(() => undefined);
      running.delete(name);
    }
    if (temporary) rmSync(temporary, { recursive: true, force: true });
  };

  const services = SERVICES.filter((name) => existsSync(serviceMain(name)));
  const keys = ensureTokenKeys(dataDir);
  const outboxDir = join(dataDir, 'outbox');

  try {
    // Each part is started through `keep`: supervised (restarted when it dies) or started once.
    const keep = async (name: string, start: () => Promise<PartRun>): Promise<void> => {
      if (options.supervise) {
        const part = await supervise(name, start, { log, shouldRestart: () => !shuttingDown });
        remember(name, { stop: () => part.stop(), pid: () => part.pid() });
      } else {
        const run = await start();
        remember(name, { stop: run.stop, pid: () => run.pid });
      }
    };

    let mongoUrl = options.mongoUrl;
    if (!mongoUrl) {
      mongoUrl = `mongodb://127.0.0.1:${ports.mongo}`;
      await keep('mongo', () =>
        startEmbeddedMongo({
          port: ports.mongo,
          dataFile: options.dataDir ? join(dataDir, 'mongo', 'shop.mv') : undefined,
          logFile: join(logDir, 'mongo.log'),
        }),
      );
    }
    log(`database      ${redactCredentials(mongoUrl)}`);
    let natsUrl = options.natsUrl;
    if (!natsUrl) {
      natsUrl = `nats://127.0.0.1:${ports.nats}`;
      await keep('nats', () => startEmbeddedNats({ port: ports.nats, storeDir: join(dataDir, 'nats') }));
    }
    log(`nats          ${redactCredentials(natsUrl)}`);

    if (observability) {
      // Before the services, so their first spans have somewhere to go.
      await keep('jaeger', () =>
        startJaeger({
          ports: {
            otlpHttp: toolPorts.otlpHttp,
            query: toolPorts.jaegerQuery,
            queryGrpc: toolPorts.jaegerQueryGrpc,
          },
          dir: join(dataDir, 'jaeger'),
          logFile: join(logDir, 'jaeger.log'),
        }),
      );
      log(`jaeger        ${observability.jaegerUrl} (traces; OTLP in at ${observability.otlpEndpoint})`);
    }

    // Each part's name in its spans, and where they go; a test's serviceEnv may still change either.
    const telemetryEnv = (name: ServiceName | 'gateway'): Record<string, string> => ({
      OTEL_SERVICE_NAME: name,
      ...(observability ? { OTEL_EXPORTER_OTLP_ENDPOINT: observability.otlpEndpoint } : {}),
    });

    const runService = (name: ServiceName) => async (): Promise<PartRun> => {
      const child: ManagedProcess = startNodeProcess(
        name,
        serviceMain(name),
        {
          ...process.env,
          ...telemetryEnv(name),
          ...options.serviceEnv,
          NODE_ENV: process.env['NODE_ENV'] ?? 'development',
          HOST: '127.0.0.1',
          PORT: String(ports[name]),
          MONGO_URL: databaseUrl(mongoUrl, name),
          NATS_URL: natsUrl,
          METRICS_PORT: String(metricsPorts[name]),
          // Every service verifies tokens; only users signs them, so only users gets the private key.
          JWT_PUBLIC_KEY_FILE: keys.publicKeyFile,
          ...(name === 'users'
            ? { JWT_PRIVATE_KEY_FILE: keys.privateKeyFile, MAIL_OUTBOX_DIR: outboxDir }
            : {}),
        },
        join(logDir, `${name}.log`),
      );
      try {
        await waitUntilReady(child, `http://127.0.0.1:${ports[name]}/health/ready`);
      } catch (error) {
        // Not ready: never leave it holding the port the next attempt needs.
        await child.stop();
        throw error;
      }
      return { stop: child.stop, exited: child.exited, pid: child.child.pid };
    };
    const startService = async (name: ServiceName) => {
      await keep(name, runService(name));
      log(`${name.padEnd(13)} http://127.0.0.1:${ports[name]} (metrics ${metricsUrls[name]})`);
    };

    // The shell's environment files (remotes.json), served at its root before its build's defaults, as
    // the ConfigMap mounted over them is in Kubernetes.
    const shellEnvironmentDir = join(dataDir, 'web', 'shell');
    mkdirSync(shellEnvironmentDir, { recursive: true });
    const pointed: Partial<Record<RemoteName, string>> = {};
    let manifestShape: RemotesManifestShape = 'schema-2';
    const pointRemotes = (versions: Partial<Record<RemoteName, string>>, shape = manifestShape) => {
      Object.assign(pointed, versions);
      manifestShape = shape;
      // Written whole and renamed into place, so no page load ever reads half a document.
      const file = join(shellEnvironmentDir, 'remotes.json');
      writeFileSync(`${file}.tmp`, `${JSON.stringify(remotesManifest(pointed, shape), null, 2)}\n`);
      renameSync(`${file}.tmp`, file);
    };

    const frontEnds = new Map<FrontEndName, StaticServer>();
    const startFrontEnd = async (name: FrontEndName, dir = frontEndDist(name)) => {
      if (!existsSync(join(dir, name === 'shell' ? 'index.html' : 'mf-manifest.json'))) {
        throw new Error(`${name} is not built (${dir}); run npm run build`);
      }
      const build = describeBuild(dir);
      const host = '127.0.0.1';
      let server: StaticServer;
      if (name === 'shell') {
        // A shell built before versioned paths expects to be served at the root, as it was then.
        server = build.versioned
          ? await serveStatic({
              dir: shellEnvironmentDir,
              builds: { [build.version]: dir },
              release: build.version,
              port: ports[name],
              host,
              spa: true,
            })
          : await serveStatic({ dir: [shellEnvironmentDir, dir], port: ports[name], host, spa: true });
      } else {
        server = await serveStatic({ builds: { [build.version]: dir }, port: ports[name], host });
        pointRemotes({ [REMOTE_OF_PART[name]]: build.version });
      }
      frontEnds.set(name, server);
      remember(name, { stop: () => server.close() });
      log(`${name.padEnd(13)} ${server.url} (${build.version})`);
    };

    await Promise.all(services.map(startService));
    // Remotes first: each names its version in remotes.json before the shell serves it.
    for (const name of [...FRONT_ENDS].reverse()) await startFrontEnd(name);

    const upstreams: Record<string, string> = {};
    for (const name of [...SERVICES, ...FRONT_ENDS]) upstreams[name] = `127.0.0.1:${ports[name]}`;
    const gateway = await startGateway({
      configPath: options.gatewayConfig ?? join(REPO_ROOT, 'gateway', 'kong.yml'),
      port: ports.gateway,
      host: options.ports === 'default' ? '0.0.0.0' : '127.0.0.1',
      upstreams,
      rateLimitFactor: options.rateLimitFactor ?? 1,
      logger: pino(pino.destination({ dest: join(logDir, 'gateway.log'), sync: false })),
      statusPort: toolPorts.gatewayStatus,
      telemetryEnv: { ...process.env, ...telemetryEnv('gateway') },
    });
    remember('gateway', { stop: () => gateway.close() });
    if (gateway.statusUrl) metricsUrls.gateway = `${gateway.statusUrl}/metrics`;

    if (observability) {
      // Last, so the scrape configuration names the gateway's status port as it was bound.
      const targets: ScrapeTarget[] = [
        ...SERVICES.map((name) => ({ job: name, address: `127.0.0.1:${metricsPorts[name]}` })),
        { job: 'gateway', address: new URL(metricsUrls.gateway).host },
      ];
      const scrapeFile = join(dataDir, 'victoria-metrics-scrape.json');
      writeFileSync(
        scrapeFile,
        `${JSON.stringify(scrapeConfig(targets, options.scrapeIntervalSeconds ?? 5), null, 2)}\n`,
      );
      await keep('victoria-metrics', async () => {
        const run = await startVictoriaMetrics({
          port: toolPorts.victoriaMetrics,
          dataDir: join(dataDir, 'victoria-metrics'),
          scrapeConfigFile: scrapeFile,
          logFile: join(logDir, 'victoria-metrics.log'),
        });
        observability.victoriaMetricsUrl = `http://127.0.0.1:${run.port}`;
        return run;
      });
      log(`metrics       ${observability.victoriaMetricsUrl}/vmui (VictoriaMetrics, every part scraped)`);
    }

    return {
      url:
        options.ports === 'default'
          ? `http://localhost:${ports.gateway}`
          : `http://127.0.0.1:${ports.gateway}`,
      ports,
      services,
      logDir,
      outboxDir,
      metricsUrls,
      observability,
      stop,
      pidOf: (name) => running.get(name)?.pid?.(),
      async stopPart(name) {
        await running.get(name)?.stop();
        running.delete(name);
      },
      async startPart(name, partOptions) {
        if ((SERVICES as readonly string[]).includes(name)) await startService(name as ServiceName);
        else await startFrontEnd(name as FrontEndName, partOptions?.dir);
      },
      publish(name, dir) {
        const server = frontEnds.get(name);
        if (!server || !running.has(name)) throw new Error(`${name} is not running`);
        const { version } = describeBuild(dir);
        server.publish(version, dir);
        log(`${name.padEnd(13)} also serves ${version}`);
        return version;
      },
      pointRemotes,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
