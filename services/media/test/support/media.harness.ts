import { ClientProxyFactory, type ClientProxy, Transport } from '@nestjs/microservices';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DEFAULT_CONFIG_PATH, type RunningGateway, startGateway } from '@shop/gateway';
import { bootstrapService, createServiceContext, loadConfig, requestReply } from '@shop/service-kit';
import { createTestTokens, mongoUrlFor, type TestTokens, uniqueDbName } from '@shop/testing';
import mongoose, { type Connection } from 'mongoose';
import { pino } from 'pino';
import { inject } from 'vitest';
import { AppModule } from '../../src/app.module';
import { mediaConfigSchema } from '../../src/config/media.config';

export interface MediaHarness {
  app: NestFastifyApplication;
  /** The gateway's URL: every HTTP call of the tests goes through it. */
  url: string;
  tokens: TestTokens;
  /** The service's database; pass it as `MONGO_URL` to start a second replica on the same data. */
  mongoUrl: string;
  db: Connection;
  /** Sends a NATS command as another service would; a refusal rejects with an HttpException. */
  command<T>(pattern: string, payload: unknown): Promise<T>;
  close(): Promise<void>;
}

/** The media service on a fresh database behind the real gateway (kong.yml, rateLimitFactor 1). */
export async function startMedia(env: Record<string, string> = {}): Promise<MediaHarness> {
  const tokens = createTestTokens();
  const mongoUrl = env['MONGO_URL'] ?? mongoUrlFor(inject('mongoUrl'), uniqueDbName('media'));
  const config = loadConfig(mediaConfigSchema, {
    PORT: '0',
    HOST: '127.0.0.1',
    MONGO_URL: mongoUrl,
    NATS_URL: inject('natsUrl'),
    LOG_LEVEL: 'warn',
    JWT_PUBLIC_KEY: tokens.publicKeyPem,
    ...env,
  });
  const context = createServiceContext('media', config);
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
      upstreams: { media: `127.0.0.1:${port}` },
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
    mongoUrl,
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

export interface UploadOptions {
  token?: string;
  filename?: string;
  /** The type the client declares; the service must not believe it. */
  type?: string;
  field?: string;
}

/** `POST /api/media` through the gateway with one file in a multipart body. */
export async function upload(
  harness: Pick<MediaHarness, 'url'>,
  bytes: Uint8Array,
  options: UploadOptions = {},
): Promise<{ status: number; body: { url?: string; message?: string }; headers: Headers }> {
  const form = new FormData();
  form.append(
    options.field ?? 'file',
    new Blob([new Uint8Array(bytes)], { type: options.type ?? 'application/octet-stream' }),
    options.filename ?? 'picture.png',
  );
  const response = await fetch(`${harness.url}/api/media`, {
    method: 'POST',
    headers: options.token ? { authorization: `Bearer ${options.token}` } : {},
    body: form,
  });
  const text = await response.text();
  return {
    status: response.status,
    body: (text ? JSON.parse(text) : {}) as { url?: string; message?: string },
    headers: response.headers,
  };
}
