import { ClientProxyFactory, type ClientProxy, Transport } from '@nestjs/microservices';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DEFAULT_CONFIG_PATH, type RunningGateway, startGateway } from '@shop/gateway';
import { bootstrapService, createServiceContext, loadConfig, requestReply } from '@shop/service-kit';
import { createTestTokens, mongoUrlFor, type TestTokens, uniqueDbName } from '@shop/testing';
import mongoose, { type Connection } from 'mongoose';
import { pino } from 'pino';
import { inject } from 'vitest';
import { AppModule } from '../../src/app.module';
import { productsConfigSchema } from '../../src/config/products.config';

export interface ProductsHarness {
  app: NestFastifyApplication;
  /** The gateway's URL: every HTTP call of the tests goes through it. */
  url: string;
  tokens: TestTokens;
  adminToken: string;
  customerToken: string;
  /** The service's own database, to look at what a test cannot see through the API. */
  db: Connection;
  /** Sends a NATS command the way the orders service does; a refusal rejects with an HttpException. */
  command<T>(pattern: string, payload: unknown): Promise<T>;
  close(): Promise<void>;
}

/**
 * The products service on a fresh database, behind the real gateway (kong.yml, rate limits as
 * configured: rateLimitFactor 1), with a key pair of its own for admin and customer tokens.
 * `options.upstreams` routes other services' paths (say, media's) through the same gateway.
 */
export async function startProducts(
  env: Record<string, string> = {},
  options: { upstreams?: Record<string, string> } = {},
): Promise<ProductsHarness> {
  const tokens = createTestTokens();
  const mongoUrl = mongoUrlFor(inject('mongoUrl'), uniqueDbName('products'));
  const config = loadConfig(productsConfigSchema, {
    PORT: '0',
    HOST: '127.0.0.1',
    MONGO_URL: mongoUrl,
    NATS_URL: inject('natsUrl'),
    LOG_LEVEL: 'warn',
    JWT_PUBLIC_KEY: tokens.publicKeyPem,
    SEED_DEMO_DATA: 'false',
    ...env,
  });
  const context = createServiceContext('products', config);
  const app = await bootstrapService(context, AppModule.register(context));
  const port = (app.getHttpServer().address() as { port: number }).port;
  let gateway: RunningGateway | undefined;
  let client: ClientProxy | undefined;
  let db: Connection | undefined;
  try {
    gateway = await startGateway({
      configPath: DEFAULT_CONFIG_PATH,
      port: 0,
      host: '127.0.0.1',
      upstreams: { ...options.upstreams, products: `127.0.0.1:${port}` },
      rateLimitFactor: 1,
      logger: pino({ level: 'silent' }),
    });
    client = ClientProxyFactory.create({
      transport: Transport.NATS,
      options: { servers: [inject('natsUrl')] },
    });
    await client.connect();
    db = await mongoose.createConnection(mongoUrl).asPromise();
  } catch (error) {
    await gateway?.close();
    await client?.close();
    await app.close();
    throw error;
  }
  const rpc = client;
  return {
    app,
    url: gateway.url,
    tokens,
    adminToken: await tokens.sign({ isAdmin: true }),
    customerToken: await tokens.sign({ isAdmin: false }),
    db,
    command: (pattern, payload) => requestReply(rpc, pattern, payload, 5_000),
    async close() {
      await gateway?.close();
      await rpc.close();
      await db?.close();
      await app.close();
    },
  };
}

export interface ApiAnswer<T> {
  status: number;
  body: T;
  headers: Headers;
}

/** One JSON call through the gateway. */
export async function api<T = unknown>(
  harness: Pick<ProductsHarness, 'url'>,
  method: string,
  path: string,
  options: { token?: string; body?: unknown } = {},
): Promise<ApiAnswer<T>> {
  const headers: Record<string, string> = {};
  if (options.token) headers['authorization'] = `Bearer ${options.token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${harness.url}${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  const isJson = response.headers.get('content-type')?.includes('json');
  return {
    status: response.status,
    body: (isJson && text ? JSON.parse(text) : text) as T,
    headers: response.headers,
  };
}

/** A media URL of the shape the media service answers. */
export function mediaUrl(name = 'picture'): string {
  const id = Array.from({ length: 24 }, () => Math.floor(Math.random() * 16).toString(16)).join('');
  return `/api/media/${id}/${Date.now()}-${name}.png`;
}
