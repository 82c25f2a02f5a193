import { type ServiceUnderTest, startServiceUnderTest } from '@shop/service-kit/testing';
import { AppModule } from '../../src/app.module';
import { type MediaConfig, mediaConfigSchema } from '../../src/config/media.config';

/** The media service under test: `call` through the gateway, `command` as another service sends it, `close`. */
export type MediaHarness = ServiceUnderTest<MediaConfig>;

/**
 * The media service on a fresh database (or on `env.MONGO_URL`'s, as a second replica) behind the
 * real gateway (kong.yml, its own rate limits).
 */
export function startMedia(env: Record<string, string> = {}): Promise<MediaHarness> {
  return startServiceUnderTest({
    name: 'media',
    configSchema: mediaConfigSchema,
    module: (context) => AppModule.register(context),
    env: { LOG_LEVEL: 'warn', ...env },
  });
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
