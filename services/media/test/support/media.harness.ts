import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { startServiceUnderTest } from '@shop/service-kit/testing';
import type { TestTokens } from '@shop/testing';
import type { Connection } from 'mongoose';
import { AppModule } from '../../src/app.module';
import { mediaConfigSchema } from '../../src/config/media.config';

export interface MediaHarness {
  app: NestFastifyApplication;
  /** The gateway's URL: every HTTP call of the tests goes through it. */
  url: string;
  tokens: TestTokens;
  /** The service's database; pass it as `MONGO_URL` to start a second replica on the same data. */
  mongoUrl: string;
  /**
   * The service's database, to look at what the API cannot show (a replica started on another's
   * `MONGO_URL` gets an empty one of its own here, unused).
   */
  db: Connection;
  /** Sends a NATS command as another service would; a refusal rejects with an HttpException. */
  command<T>(pattern: string, payload: unknown): Promise<T>;
  close(): Promise<void>;
}

/** The media service on a fresh database behind the real gateway (kong.yml, its own rate limits). */
export async function startMedia(env: Record<string, string> = {}): Promise<MediaHarness> {
  const service = await startServiceUnderTest({
    name: 'media',
    configSchema: mediaConfigSchema,
    module: (context) => AppModule.register(context),
    env: { LOG_LEVEL: 'warn', ...env },
  });
  return {
    app: service.app,
    url: service.url,
    tokens: service.tokens,
    mongoUrl: service.context.config.MONGO_URL,
    db: service.db,
    command: service.command,
    close: service.close,
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
