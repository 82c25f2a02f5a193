import { generateKeyPairSync } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, type ServiceProcess, startServiceProcess } from '@shop/infra';
import type { PartName, ServiceName } from '../ports.js';

/** The service's own database on a MongoDB URL: `mongodb://h:27017/?x=y` → `mongodb://h:27017/orders?x=y`. */
export function databaseUrl(mongoUrl: string, database: string): string {
  const url = new URL(mongoUrl);
  url.pathname = `/${database}`;
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

/** Each part's name in its spans, and where they go (none: the parts export nothing). */
export function telemetryEnv(name: string, otlpEndpoint?: string): Record<string, string> {
  return { OTEL_SERVICE_NAME: name, ...(otlpEndpoint ? { OTEL_EXPORTER_OTLP_ENDPOINT: otlpEndpoint } : {}) };
}

/** What every service of one stack is started with. */
export interface ServiceSettings {
  mongoUrl: string;
  natsUrl: string;
  keys: TokenKeyFiles;
  /** Where users writes e-mail (`.eml` files) without `smtpUrl`. */
  outboxDir: string;
  /** The SMTP server users sends e-mail through (SMTP_URL): the stack's mail catcher, or one given. */
  smtpUrl?: string;
  logDir: string;
  otlpEndpoint?: string;
  /**
   * Copies of the events stream JetStream keeps (NATS_STREAM_REPLICAS): 3 on a cluster of three or more;
   * absent with a NATS of your own, whose environment says.
   */
  streamReplicas?: number;
  /** Where every service syncs the fault flags from (FLAGS_SOURCE): the first data copy; none without data. */
  flagsSource?: string;
  /** Extra environment for every service (a test shortening the recovery windows says so here). */
  extraEnv?: Record<string, string>;
}

/** A service copy's name: `products` for the first, `products-2` for the second. */
export type ServiceInstanceName = ServiceName | `${ServiceName}-${number}`;

/** One running copy of a service: its name in logs and the supervisor, and its two ports. */
export interface ServiceInstance {
  service: ServiceName;
  /** `products`, or `products-2` for a second replica. */
  name: ServiceInstanceName;
  port: number;
  metricsPort: number;
  /** A data copy's flagd sync service (FLAGS_SYNC_PORT). */
  flagsSyncPort?: number;
}

/**
 * Starts one copy of a built service as production runs it, with its own database on the stack's
 * MongoDB, the stack's NATS and token keys, its log in `<logDir>/<name>.log`; resolves once it is ready.
 */
export function startService(instance: ServiceInstance, settings: ServiceSettings): Promise<ServiceProcess> {
  const { service } = instance;
  // An SMTP_URL of the environment is the stack's to pass on (StackOptions.smtpUrl), never inherited.
  const { SMTP_URL: _inherited, ...inherited } = process.env;
  return startServiceProcess(
    service,
    {
      ...inherited,
      // The service's own name in its spans; a test's extraEnv may still change it or where spans go.
      ...telemetryEnv(service, settings.otlpEndpoint),
      ...(settings.streamReplicas ? { NATS_STREAM_REPLICAS: String(settings.streamReplicas) } : {}),
      ...settings.extraEnv,
      NODE_ENV: process.env['NODE_ENV'] ?? 'development',
      HOST: '127.0.0.1',
      PORT: String(instance.port),
      MONGO_URL: databaseUrl(settings.mongoUrl, service),
      NATS_URL: settings.natsUrl,
      METRICS_PORT: String(instance.metricsPort),
      ...(settings.flagsSource ? { FLAGS_SOURCE: settings.flagsSource } : {}),
      ...(instance.flagsSyncPort ? { FLAGS_SYNC_PORT: String(instance.flagsSyncPort) } : {}),
      // Every service verifies tokens; only users signs them, so only users gets the private key.
      JWT_PUBLIC_KEY_FILE: settings.keys.publicKeyFile,
      ...(service === 'users'
        ? {
            JWT_PRIVATE_KEY_FILE: settings.keys.privateKeyFile,
            MAIL_OUTBOX_DIR: settings.outboxDir,
            ...(settings.smtpUrl ? { SMTP_URL: settings.smtpUrl } : {}),
          }
        : {}),
    },
    {
      logFile: join(settings.logDir, `${instance.name}.log`),
      // Six services loading Nest and the OpenTelemetry SDK at once on two busy cores have taken over a minute.
      readyTimeoutMs: 120_000,
    },
  );
}

/** Every copy of the services to run: the first on the service's own ports, the others on free ones. */
export async function serviceInstances(
  services: ServiceName[],
  ports: { parts: Record<PartName, number>; metrics: Record<ServiceName, number>; flagsSync: number },
  replicas: Partial<Record<ServiceName, number>>,
): Promise<ServiceInstance[]> {
  const instances: ServiceInstance[] = [];
  for (const service of services) {
    const count = replicas[service] ?? 1;
    if (!Number.isInteger(count) || count < 1) {
      throw new Error(`replicas of ${service}: ${count} is not a whole number of 1 or more`);
    }
    instances.push({
      service,
      name: service,
      port: ports.parts[service],
      metricsPort: ports.metrics[service],
      ...(service === 'data' && { flagsSyncPort: ports.flagsSync }),
    });
    for (let copy = 2; copy <= count; copy += 1) {
      instances.push({
        service,
        name: `${service}-${copy}`,
        port: await freePort(),
        metricsPort: await freePort(),
        ...(service === 'data' && { flagsSyncPort: await freePort() }),
      });
    }
  }
  return instances;
}
