import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { UserInfo } from '@shop/contracts';
import type { RunningGateway } from '@shop/gateway';
import { startServiceUnderTest } from '@shop/service-kit/testing';
import { until } from '@shop/testing';
import type { Connection } from 'mongoose';
import { expect } from 'vitest';
import { AppModule } from '../../src/app.module';
import { Clock } from '../../src/clock/clock';
import { usersConfigSchema } from '../../src/config/users.config';

/** A clock a test can move forward instead of waiting. */
export class TestClock extends Clock {
  offsetMs = 0;

  override now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }

  /** Runs `work` with the clock `ms` ahead, and puts it back after. */
  async aheadBy<T>(ms: number, work: () => Promise<T>): Promise<T> {
    this.offsetMs = ms;
    try {
      return await work();
    } finally {
      this.offsetMs = 0;
    }
  }
}

export interface ApiResponse<T = Record<string, unknown>> {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: T;
  text: string;
}

export interface CallOptions {
  token?: string;
  headers?: Record<string, string>;
  /** A raw body instead of JSON. */
  raw?: string | Buffer;
  /** The local address to connect from (127.0.0.x): how the gateway sees different clients. */
  from?: string;
}

export interface UsersHarness {
  /** The gateway's URL: tests go through the edge the storefront uses. */
  gatewayUrl: string;
  serviceUrl: string;
  app: NestFastifyApplication;
  gateway: RunningGateway;
  clock: TestClock;
  db: Connection;
  mongoUrl: string;
  keyDir: string;
  publicKeyFile: string;
  publicKey: KeyObject;
  privateKey: KeyObject;
  outboxDir: string;
  /** Calls the gateway (or `base`), answering status, headers and parsed JSON. */
  call<T = Record<string, unknown>>(
    method: string,
    path: string,
    body?: unknown,
    options?: CallOptions & { base?: string },
  ): Promise<ApiResponse<T>>;
  /**
   * Signs a new account up through the gateway and answers its user info (the 201 checked): `fields`
   * over the name 'Ann Shopper', a fresh address and `PASSWORD`.
   */
  signUp(fields?: { name?: string; email?: string; password?: string }): Promise<UserInfo>;
  stop(): Promise<void>;
}

export const ADMIN = { email: 'admin@shop.local', password: 'admin-password-123' };

/** The password of the accounts the tests sign up. */
export const PASSWORD = 'copper-kettle-91';

/** One HTTP call with node:http, which (unlike fetch) can pick the local address. */
export function httpCall<T>(
  url: string,
  method: string,
  body: unknown,
  options: CallOptions = {},
): Promise<ApiResponse<T>> {
  const payload =
    options.raw !== undefined ? options.raw : body === undefined ? undefined : JSON.stringify(body);
  const headers: Record<string, string> = { ...options.headers };
  if (payload !== undefined && !Object.keys(headers).some((name) => name.toLowerCase() === 'content-type')) {
    headers['content-type'] = 'application/json';
  }
  if (payload !== undefined) headers['content-length'] = String(Buffer.byteLength(payload));
  if (options.token) headers['authorization'] = `Bearer ${options.token}`;
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers, localAddress: options.from, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed: unknown = undefined;
        try {
          parsed = text ? JSON.parse(text) : undefined;
        } catch {
          parsed = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: parsed as T, text });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    if (payload !== undefined) req.write(payload);
    req.end();
  });
}

/** A fresh users service (own database, own keys, own outbox folder) behind a real gateway. */
export async function startUsers(
  options: { env?: Record<string, string>; rateLimitFactor?: number } = {},
): Promise<UsersHarness> {
  const keyDir = mkdtempSync(join(tmpdir(), 'users-keys-'));
  const outboxDir = mkdtempSync(join(tmpdir(), 'users-outbox-'));
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const privateKeyFile = join(keyDir, 'jwt-private.pem');
  const publicKeyFile = join(keyDir, 'jwt-public.pem');
  writeFileSync(privateKeyFile, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
  writeFileSync(publicKeyFile, publicKey.export({ type: 'spki', format: 'pem' }));

  const clock = new TestClock();
  const service = await startServiceUnderTest({
    name: 'users',
    configSchema: usersConfigSchema,
    module: (context) => AppModule.register(context, { clock }),
    env: {
      // The service signs with its own key files, not with the test kit's key pair.
      JWT_PUBLIC_KEY: undefined,
      JWT_PRIVATE_KEY_FILE: privateKeyFile,
      JWT_PUBLIC_KEY_FILE: publicKeyFile,
      MAIL_OUTBOX_DIR: outboxDir,
      // Every test client is 127.0.0.1: per-address limits are raised here and proven in throttling.spec.ts.
      THROTTLE_SIGNIN_PER_ADDRESS: '1000',
      THROTTLE_SIGNUP_PER_ADDRESS: '1000',
      THROTTLE_FORGOT_PER_ADDRESS: '1000',
      THROTTLE_RESET_PER_ADDRESS: '1000',
      ...options.env,
    },
    rateLimitFactor: options.rateLimitFactor ?? 100,
  });
  const call: UsersHarness['call'] = (method, path, body, callOptions = {}) =>
    httpCall(`${callOptions.base ?? service.url}${path}`, method, body, callOptions);

  return {
    gatewayUrl: service.url,
    serviceUrl: await service.app.getUrl(),
    app: service.app,
    gateway: service.gateway,
    clock,
    db: service.db,
    mongoUrl: service.mongoUrl,
    keyDir,
    publicKeyFile,
    publicKey,
    privateKey,
    outboxDir,
    call,
    async signUp(fields = {}) {
      const response = await call<UserInfo>('POST', '/api/users/signup', {
        name: 'Ann Shopper',
        email: uniqueEmail(),
        password: PASSWORD,
        ...fields,
      });
      expect(response.status).toBe(201);
      return response.body;
    },
    async stop() {
      await service.close();
      rmSync(keyDir, { recursive: true, force: true });
      rmSync(outboxDir, { recursive: true, force: true });
    },
  };
}

let counter = 0;

/** An address no other test uses, in mixed case to prove normalisation. */
export function uniqueEmail(prefix = 'shopper'): string {
  counter += 1;
  return `${prefix}.${Date.now().toString(36)}${counter}@Example.COM`;
}

/** The messages in the outbox folder addressed to `email`, oldest first. */
export function mailsTo(outboxDir: string, email: string): string[] {
  return readdirSync(outboxDir)
    .filter((name) => name.endsWith('.eml'))
    .sort()
    .map((name) => readFileSync(join(outboxDir, name), 'utf8'))
    .filter((text) => new RegExp(`^To: ${email.replace(/[.+]/g, '\\$&')}$`, 'im').test(text));
}

/** Waits for the newest reset code e-mailed to `email` (mail leaves after the answer). */
export function waitForCode(outboxDir: string, email: string, previous = 0): Promise<string> {
  return until(() => {
    const mails = mailsTo(outboxDir, email);
    return mails.length > previous ? /reset code is (\d{6})/.exec(mails.at(-1)!)?.[1] : undefined;
  }, 5_000);
}
