import { generateKeyPairSync } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startGateway } from '@shop/gateway';
import pino from 'pino';
import { freePort, startEmbeddedMongo, startEmbeddedNats } from '@shop/testing';
import { type ManagedProcess, startNodeProcess, waitUntilReady } from './child-process.js';
import {
  DEFAULT_PORTS,
  FRONT_ENDS,
  type FrontEndName,
  type PartName,
  SERVICES,
  type ServiceName,
} from './ports.js';
import { serveStatic } from './serve-static.mjs';

/** The repository root, found from this file (tools/src or tools/dist). */
export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface StackOptions {
  /** `default`: the documented ports (npm start); `free`: any free ports (tests). */
  ports: 'default' | 'free';
  /** Keeps the database file and the NATS store here between runs; a temporary folder when absent. */
  dataDir?: string;
  /** Multiplies every gateway rate limit (load tests); logged by the gateway when not 1. */
  rateLimitFactor?: number;
  log?: (line: string) => void;
}

interface StoppablePart {
  stop(): Promise<void>;
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
  /** Stops one part (to show the rest copes) and starts it again. */
  stopPart(name: ServiceName | FrontEndName): Promise<void>;
  startPart(name: ServiceName | FrontEndName, options?: { dir?: string }): Promise<void>;
  stop(): Promise<void>;
}

function frontEndDist(name: FrontEndName): string {
  return join(REPO_ROOT, name, 'dist');
}

function serviceMain(name: ServiceName): string {
  return join(REPO_ROOT, 'services', name, 'dist', 'main.js');
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

  const running = new Map<string, StoppablePart>();
  const order: string[] = [];
  const remember = (name: string, part: StoppablePart) => {
    running.set(name, part);
    if (!order.includes(name)) order.push(name);
  };

  const stop = async () => {
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
    const mongo = await startEmbeddedMongo({
      port: ports.mongo,
      dataFile: options.dataDir ? join(dataDir, 'mongo', 'shop.mv') : undefined,
      logFile: join(logDir, 'mongo.log'),
    });
    remember('mongo', mongo);
    log(`database      ${mongo.url}`);
    const nats = await startEmbeddedNats({ port: ports.nats, storeDir: join(dataDir, 'nats') });
    remember('nats', nats);
    log(`nats          ${nats.url}`);

    const startService = async (name: ServiceName) => {
      const child: ManagedProcess = startNodeProcess(
        name,
        serviceMain(name),
        {
          ...process.env,
          NODE_ENV: process.env['NODE_ENV'] ?? 'development',
          HOST: '127.0.0.1',
          PORT: String(ports[name]),
          MONGO_URL: `${mongo.url}/${name}`,
          NATS_URL: nats.url,
          // Every service verifies tokens; only users signs them, so only users gets the private key.
          JWT_PUBLIC_KEY_FILE: keys.publicKeyFile,
          ...(name === 'users'
            ? { JWT_PRIVATE_KEY_FILE: keys.privateKeyFile, MAIL_OUTBOX_DIR: outboxDir }
            : {}),
        },
        join(logDir, `${name}.log`),
      );
      remember(name, child);
      await waitUntilReady(child, `http://127.0.0.1:${ports[name]}/health/ready`);
      log(`${name.padEnd(13)} http://127.0.0.1:${ports[name]}`);
    };

    const startFrontEnd = async (name: FrontEndName, dir = frontEndDist(name)) => {
      if (!existsSync(join(dir, name === 'shell' ? 'index.html' : 'mf-manifest.json'))) {
        throw new Error(`${name} is not built (${dir}); run npm run build`);
      }
      const server = await serveStatic({ dir, port: ports[name], host: '127.0.0.1', spa: name === 'shell' });
      remember(name, { stop: () => server.close() });
      log(`${name.padEnd(13)} ${server.url}`);
    };

    await Promise.all(services.map(startService));
    for (const name of FRONT_ENDS) await startFrontEnd(name);

    const upstreams: Record<string, string> = {};
    for (const name of [...SERVICES, ...FRONT_ENDS]) upstreams[name] = `127.0.0.1:${ports[name]}`;
    const gateway = await startGateway({
      configPath: join(REPO_ROOT, 'gateway', 'kong.yml'),
      port: ports.gateway,
      host: options.ports === 'default' ? '0.0.0.0' : '127.0.0.1',
      upstreams,
      rateLimitFactor: options.rateLimitFactor ?? 1,
      logger: pino(pino.destination({ dest: join(logDir, 'gateway.log'), sync: false })),
    });
    remember('gateway', { stop: () => gateway.close() });

    return {
      url:
        options.ports === 'default'
          ? `http://localhost:${ports.gateway}`
          : `http://127.0.0.1:${ports.gateway}`,
      ports,
      services,
      logDir,
      outboxDir,
      stop,
      async stopPart(name) {
        await running.get(name)?.stop();
        running.delete(name);
      },
      async startPart(name, partOptions) {
        if ((SERVICES as readonly string[]).includes(name)) await startService(name as ServiceName);
        else await startFrontEnd(name as FrontEndName, partOptions?.dir);
      },
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
