import { createHmac, generateKeyPairSync, type KeyObject, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { USER_DELETED, USER_PASSWORD_RESET } from '@shop/contracts';
import { until } from '@shop/testing';
import { SignJWT } from 'jose';
import { connect, type NatsConnection } from 'nats';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { authConfigShape, loadPublicKey } from '../src/auth/auth.config';
import { bearerToken } from '../src/auth/auth.guard';
import { TokenRevocations } from '../src/auth/token-revocations';
import { baseServiceConfigSchema } from '../src/config/service-config';
import { JetStreamEvents } from '../src/events/jetstream-events';
import { newEvent } from '../src/events/new-event';
import { startServiceApp } from '../testing';
import { AuthTestAppModule } from './auth-test-app.module';

const logger = pino({ level: 'silent' });
const keys = generateKeyPairSync('ed25519');
const otherKeys = generateKeyPairSync('ed25519');
const keyDir = mkdtempSync(join(tmpdir(), 'auth-spec-'));
const publicKeyFile = join(keyDir, 'jwt-public.pem');
writeFileSync(publicKeyFile, keys.publicKey.export({ type: 'spki', format: 'pem' }));

let app: NestFastifyApplication | undefined;
let base: string;
let nats: NatsConnection;
let events: JetStreamEvents;

const objectId = () => randomUUID().replace(/-/g, '').slice(0, 24);
const nowSeconds = () => Math.floor(Date.now() / 1_000);

interface TokenOptions {
  sub?: string;
  isAdmin?: unknown;
  iat?: number;
  exp?: number;
  iss?: string;
  aud?: string;
  jti?: string | null;
  key?: KeyObject;
}

function sign(options: TokenOptions = {}): Promise<string> {
  const iat = options.iat ?? nowSeconds();
  let jwt = new SignJWT({ isAdmin: options.isAdmin ?? false })
    .setProtectedHeader({ alg: 'EdDSA', typ: 'JWT' })
    .setSubject(options.sub ?? objectId())
    .setIssuer(options.iss ?? 'shop-users')
    .setAudience(options.aud ?? 'shop')
    .setIssuedAt(iat)
    .setExpirationTime(options.exp ?? iat + 3_600);
  if (options.jti !== null) jwt = jwt.setJti(options.jti ?? randomUUID());
  return jwt.sign(options.key ?? keys.privateKey);
}

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

function unsignedToken(payload: Record<string, unknown>): string {
  return `${b64({ alg: 'none', typ: 'JWT' })}.${b64(payload)}.`;
}

/** The classic confusion attack: HMAC keyed with the public key's bytes. */
function hs256Token(payload: Record<string, unknown>): string {
  const body = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64(payload)}`;
  const secret = keys.publicKey.export({ type: 'spki', format: 'pem' });
  return `${body}.${createHmac('sha256', secret).update(body).digest('base64url')}`;
}

function claims(sub = objectId(), isAdmin = true): Record<string, unknown> {
  const iat = nowSeconds();
  return { sub, isAdmin, iat, exp: iat + 3_600, iss: 'shop-users', aud: 'shop', jti: randomUUID() };
}

async function call(path: string, token?: string, rawHeader?: string) {
  const authorization = rawHeader ?? (token ? `Bearer ${token}` : undefined);
  const response = await fetch(`${base}${path}`, { headers: authorization ? { authorization } : {} });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function startApp(): Promise<void> {
  ({ app } = await startServiceApp({
    name: 'guarded',
    database: 'auth',
    configSchema: baseServiceConfigSchema.extend(authConfigShape),
    module: (context) => AuthTestAppModule.register(context),
    env: { JWT_PUBLIC_KEY_FILE: publicKeyFile },
  }));
  base = await app.getUrl();
}

beforeAll(async () => {
  nats = await connect({ servers: inject('natsUrl') });
  events = new JetStreamEvents(nats, logger);
  await events.ensureStream();
  await startApp();
});

afterAll(async () => {
  await app?.close();
  await nats?.drain();
  rmSync(keyDir, { recursive: true, force: true });
});

describe('the guard of @shop/service-kit', () => {
  it('leaves routes without a decorator open', async () => {
    expect(await call('/api/guarded/public')).toEqual({ status: 200, body: { ok: true } });
  });

  it('answers 401 without a token or with a malformed Authorization header', async () => {
    expect(await call('/api/guarded/mine')).toEqual({ status: 401, body: { message: 'Not signed in' } });
    expect((await call('/api/guarded/mine', undefined, 'Basic abc')).status).toBe(401);
    expect((await call('/api/guarded/mine', undefined, 'Bearer')).status).toBe(401);
    expect(await call('/api/guarded/mine', 'not.a.jwt')).toEqual({
      status: 401,
      body: { message: 'Invalid or expired token' },
    });
  });

  it('gives the handler the verified user', async () => {
    const sub = objectId();
    const iat = nowSeconds();
    const { status, body } = await call('/api/guarded/mine', await sign({ sub, iat }));
    expect(status).toBe(200);
    expect(body).toEqual({ id: sub, isAdmin: false, issuedAt: new Date(iat * 1_000).toISOString() });
  });

  it('answers 401 for a tampered, expired or foreign token', async () => {
    const good = await sign({ isAdmin: false });
    const [header, , signature] = good.split('.');
    const tampered = `${header}.${b64(claims(undefined, true))}.${signature}`;
    const expired = await sign({ iat: nowSeconds() - 7_200, exp: nowSeconds() - 60 });
    const foreign = await sign({ key: otherKeys.privateKey });
    for (const token of [tampered, expired, foreign]) {
      expect(await call('/api/guarded/mine', token)).toEqual({
        status: 401,
        body: { message: 'Invalid or expired token' },
      });
    }
  });

  it('accepts EdDSA only: alg none and an HS256 token keyed with the public key are refused', async () => {
    expect((await call('/api/guarded/admin', unsignedToken(claims()))).status).toBe(401);
    expect((await call('/api/guarded/admin', hs256Token(claims()))).status).toBe(401);
  });

  it('answers 401 for the wrong issuer or audience, a missing jti or a non-boolean isAdmin', async () => {
    for (const token of [
      await sign({ iss: 'someone-else' }),
      await sign({ aud: 'another-app' }),
      await sign({ jti: null }),
      await sign({ isAdmin: 'yes' }),
    ]) {
      expect((await call('/api/guarded/mine', token)).status).toBe(401);
    }
  });

  it('answers 403 to a signed-in non-admin on an admin route and 200 to an admin', async () => {
    expect(await call('/api/guarded/admin', await sign({ isAdmin: false }))).toEqual({
      status: 403,
      body: { message: 'Admin access required' },
    });
    const sub = objectId();
    expect(await call('/api/guarded/admin', await sign({ sub, isAdmin: true }))).toEqual({
      status: 200,
      body: { admin: sub },
    });
  });
});

describe('token revocations', () => {
  it("refuses a deleted user's tokens once its user.deleted event is consumed, and still after a restart", async () => {
    const sub = objectId();
    const token = await sign({ sub, isAdmin: true });
    expect((await call('/api/guarded/admin', token)).status).toBe(200);

    await events.publish(newEvent(USER_DELETED, { userId: sub }));
    // The outcome, not how soon (a latency goal belongs in bench/): until's limit is a hang guard.
    await until(async () => (await call('/api/guarded/admin', token)).status === 401);
    expect((await call('/api/guarded/mine', token)).body).toEqual({
      message: 'Your session has ended, please sign in again',
    });

    await app?.close();
    app = undefined;
    await startApp();
    // No waiting: the history is replayed before the service listens.
    expect((await call('/api/guarded/mine', token)).status).toBe(401);
    expect((await call('/api/guarded/mine', await sign())).status).toBe(200);
  });

  it('ends the sessions opened before a password reset and keeps later ones', async () => {
    const sub = objectId();
    const before = await sign({ sub, iat: nowSeconds() - 60 });
    const sessionsValidFrom = nowSeconds() - 10;
    const after = await sign({ sub, iat: sessionsValidFrom });
    await events.publish(newEvent(USER_PASSWORD_RESET, { userId: sub, sessionsValidFrom, via: 'reset' }));
    await until(async () => (await call('/api/guarded/mine', before)).status === 401);
    expect((await call('/api/guarded/mine', after)).status).toBe(200);
  });
});

describe('TokenRevocations', () => {
  it('applies events idempotently and keeps the latest reset', () => {
    const revocations = new TokenRevocations(nats, events, logger);
    const deleted = newEvent(USER_DELETED, { userId: 'a' });
    revocations.apply(deleted);
    revocations.apply(deleted);
    expect(revocations.isRevoked('a', nowSeconds())).toBe(true);
    revocations.apply(newEvent(USER_PASSWORD_RESET, { userId: 'b', sessionsValidFrom: 200, via: 'reset' }));
    revocations.apply(newEvent(USER_PASSWORD_RESET, { userId: 'b', sessionsValidFrom: 100, via: 'profile' }));
    expect(revocations.isRevoked('b', 150)).toBe(true);
    expect(revocations.isRevoked('b', 200)).toBe(false);
    expect(revocations.isRevoked('c', 1)).toBe(false);
  });
});

describe('auth configuration and headers', () => {
  it('reads the public key from a PEM or a file and refuses anything but an Ed25519 public key', () => {
    const pem = keys.publicKey.export({ type: 'spki', format: 'pem' }) as string;
    expect(loadPublicKey({ JWT_PUBLIC_KEY: pem }).asymmetricKeyType).toBe('ed25519');
    expect(loadPublicKey({ JWT_PUBLIC_KEY_FILE: publicKeyFile }).asymmetricKeyType).toBe('ed25519');
    expect(() => loadPublicKey({})).toThrow(/JWT_PUBLIC_KEY or JWT_PUBLIC_KEY_FILE/);
    const privatePem = keys.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
    expect(() => loadPublicKey({ JWT_PUBLIC_KEY: privatePem })).toThrow(/private key/);
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({
      type: 'spki',
      format: 'pem',
    });
    expect(() => loadPublicKey({ JWT_PUBLIC_KEY: rsa as string })).toThrow(/Ed25519/);
    expect(() => loadPublicKey({ JWT_PUBLIC_KEY_FILE: join(keyDir, 'missing.pem') })).toThrow(
      /JWT_PUBLIC_KEY_FILE/,
    );
  });

  it('takes the token from a Bearer header only', () => {
    expect(bearerToken('Bearer abc.def.ghi')).toBe('abc.def.ghi');
    expect(bearerToken('bearer abc')).toBe('abc');
    expect(bearerToken('Basic abc')).toBeUndefined();
    expect(bearerToken('Bearer a b')).toBeUndefined();
    expect(bearerToken(undefined)).toBeUndefined();
  });
});
