import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { UserInfo } from '@shop/contracts';
import { type ServiceUnderTest, startServiceUnderTest } from '@shop/service-kit/testing';
import { until } from '@shop/testing';
import { expect } from 'vitest';
import { AppModule } from '../../src/app.module';
import { Clock } from '../../src/clock/clock';
import { type UsersConfig, usersConfigSchema } from '../../src/config/users.config';

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

/**
 * The users service under test (`call` through the gateway, `serviceUrl` without it, `close`), with
 * what the users tests look at besides: its clock, its key files and the outbox its mail goes to.
 */
export interface UsersHarness extends ServiceUnderTest<UsersConfig> {
  clock: TestClock;
  keyDir: string;
  publicKeyFile: string;
  publicKey: KeyObject;
  privateKey: KeyObject;
  outboxDir: string;
  /**
   * Signs a new account up through the gateway and answers its user info (the 201 checked): `fields`
   * over the name 'Ann Shopper', a fresh address and `PASSWORD`.
   */
  signUp(fields?: { name?: string; email?: string; password?: string }): Promise<UserInfo>;
}

export const ADMIN = { email: 'admin@shop.local', password: 'admin-password-123' };

/** The password of the accounts the tests sign up. */
export const PASSWORD = 'copper-kettle-91';

/** A fresh users service (own database, own keys, own outbox folder) behind a real gateway. */
export async function startUsers(
  options: { env?: Record<string, string>; rateLimitFactor?: number; events?: string[] } = {},
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
    events: options.events,
  });
  return {
    ...service,
    clock,
    keyDir,
    publicKeyFile,
    publicKey,
    privateKey,
    outboxDir,
    async signUp(fields = {}) {
      const response = await service.call<UserInfo>('POST', '/api/users/signup', {
        body: { name: 'Ann Shopper', email: uniqueEmail(), password: PASSWORD, ...fields },
      });
      expect(response.status).toBe(201);
      return response.body;
    },
    async close() {
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
