import type { UserInfo } from '@shop/contracts';
import { createHmac, generateKeyPairSync, randomUUID } from 'node:crypto';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ADMIN_ACTION, EVENTS_STREAM, eventSubject, USER_DELETED } from '@shop/contracts';
import { SignJWT } from 'jose';
import { Types } from 'mongoose';
import { connect } from 'nats';
import { adminActionsOn } from '@shop/service-kit/testing';
import { jsonCall, until } from '@shop/testing';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DeletedUsersPurger } from '../src/users/deleted-users.purger';
import { startGuardedService } from './support/guarded-service';
import {
  ADMIN,
  PASSWORD,
  type UsersHarness,
  startUsers,
  uniqueEmail,
  waitForCode,
} from './support/users.harness';

let users: UsersHarness;
let other: NestFastifyApplication | undefined;
let otherUrl: string;
let admin: UserInfo;

const signUp = (name = 'Bob'): Promise<UserInfo> => users.signUp({ name });

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const nowSeconds = () => Math.floor(Date.now() / 1_000);

function claimsOf(sub: string): Record<string, unknown> {
  return {
    sub,
    isAdmin: true,
    iat: nowSeconds(),
    exp: nowSeconds() + 600,
    iss: 'shop-users',
    aud: 'shop',
    jti: randomUUID(),
  };
}

beforeAll(async () => {
  users = await startUsers({ events: [ADMIN_ACTION] });
  admin = (await users.call<UserInfo>('POST', '/api/users/signin', { body: ADMIN })).body;
  other = await startGuardedService(users.publicKeyFile);
  otherUrl = await other.getUrl();
});

afterAll(async () => {
  await other?.close();
  await users?.close();
});

describe('admin calls', () => {
  it('lists every account for an admin without hashes or codes', async () => {
    const bob = await signUp('Bob Lister');
    const response = await users.call<Record<string, unknown>[]>('GET', '/api/users/all-users', {
      token: admin.token,
    });
    expect(response.status).toBe(200);
    expect(response.body).toContainEqual({
      _id: bob._id,
      name: 'Bob Lister',
      email: bob.email,
      isAdmin: false,
    });
    expect(response.body).toContainEqual({
      _id: admin._id,
      name: 'Admin',
      email: ADMIN.email,
      isAdmin: true,
    });
    for (const user of response.body)
      expect(Object.keys(user).sort()).toEqual(['_id', 'email', 'isAdmin', 'name']);
    expect(response.text).not.toMatch(/argon2|passwordHash|passwordReset|outbox/);
  });

  it('answers 401 without a token and 403 to a non-admin on every admin call', async () => {
    const bob = await signUp();
    const calls = [
      ['GET', '/api/users/all-users'],
      ['DELETE', `/api/users/delete/${admin._id}`],
      ['PUT', `/api/users/markadmin/${bob._id}`],
    ] as const;
    for (const [method, path] of calls) {
      expect(await users.call(method, path)).toMatchObject({
        status: 401,
        body: { message: 'Not signed in' },
      });
      expect(await users.call(method, path, { token: bob.token })).toMatchObject({
        status: 403,
        body: { message: 'Admin access required' },
      });
    }
  });

  it('answers 401 for tampered, expired, foreign-key, alg none and HS256 tokens', async () => {
    const [header, , signature] = admin.token.split('.');
    const bob = await signUp();
    const tampered = `${header}.${b64(claimsOf(bob._id))}.${signature}`;
    const foreignKey = generateKeyPairSync('ed25519').privateKey;
    const foreign = await new SignJWT({ isAdmin: true })
      .setProtectedHeader({ alg: 'EdDSA' })
      .setSubject(bob._id)
      .setIssuer('shop-users')
      .setAudience('shop')
      .setIssuedAt()
      .setExpirationTime('1h')
      .setJti(randomUUID())
      .sign(foreignKey);
    const expired = await new SignJWT({ isAdmin: true })
      .setProtectedHeader({ alg: 'EdDSA' })
      .setSubject(admin._id)
      .setIssuer('shop-users')
      .setAudience('shop')
      .setIssuedAt(nowSeconds() - 86_400)
      .setExpirationTime(nowSeconds() - 3_600)
      .setJti(randomUUID())
      .sign(users.privateKey);
    const none = `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claimsOf(bob._id))}.`;
    const hsBody = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64(claimsOf(bob._id))}`;
    const pem = users.publicKey.export({ type: 'spki', format: 'pem' });
    const hs256 = `${hsBody}.${createHmac('sha256', pem).update(hsBody).digest('base64url')}`;
    for (const token of [tampered, foreign, expired, none, hs256]) {
      expect(await users.call('GET', '/api/users/all-users', { token })).toMatchObject({
        status: 401,
        body: { message: 'Invalid or expired token' },
      });
    }
  });

  it('makes a user an admin, idempotently, effective from their next sign-in', async () => {
    const email = uniqueEmail('promoted');
    const carol = await users.signUp({ name: 'Carol', email });
    const first = await users.call('PUT', `/api/users/markadmin/${carol._id}`, { token: admin.token });
    expect(first).toMatchObject({ status: 200, body: { _id: carol._id, isAdmin: true } });
    const again = await users.call('PUT', `/api/users/markadmin/${carol._id}`, { token: admin.token });
    expect(again).toMatchObject({ status: 200, body: { _id: carol._id, isAdmin: true } });
    // The old token still says what was true when it was issued.
    expect((await users.call('GET', '/api/users/all-users', { token: carol.token })).status).toBe(403);
    const fresh = (
      await users.call<UserInfo>('POST', '/api/users/signin', { body: { email, password: PASSWORD } })
    ).body;
    expect(fresh.isAdmin).toBe(true);
    expect((await users.call('GET', '/api/users/all-users', { token: fresh.token })).status).toBe(200);
  });

  it('answers 404 for unknown ids and 400 for malformed ones', async () => {
    /** The answers to an admin's delete and make-admin of the account `id`. */
    const deleteAndMarkAdmin = async (id: string) => [
      await users.call('DELETE', `/api/users/delete/${id}`, { token: admin.token }),
      await users.call('PUT', `/api/users/markadmin/${id}`, { token: admin.token }),
    ];
    const notFound = { status: 404, body: { message: 'User Not Found' } };
    expect(await deleteAndMarkAdmin('64b7f0000000000000000000')).toMatchObject([notFound, notFound]);
    const invalid = { status: 400, body: { message: 'Invalid user id' } };
    for (const bad of ['not-an-id', '123', encodeURIComponent('{"$ne":null}'), 'aaaaaaaaaaaa']) {
      expect(await deleteAndMarkAdmin(bad), bad).toMatchObject([invalid, invalid]);
    }
  });

  it('refuses an admin deleting their own account', async () => {
    expect(
      await users.call('DELETE', `/api/users/delete/${admin._id}`, { token: admin.token }),
    ).toMatchObject({
      status: 400,
      body: { message: 'You cannot delete your own account' },
    });
  });
});

describe('the audit trail of accounts', () => {
  it('records who made an account an admin and who deleted one, with what it was', async () => {
    const email = uniqueEmail('audited');
    const frank = await users.signUp({ name: 'Frank', email });
    const on = (count: number) => adminActionsOn(users, frank._id, count);
    // Stored as the service normalises it.
    const target = { type: 'user', id: frank._id, label: frank.email };
    await users.call('PUT', `/api/users/markadmin/${frank._id}`, { token: admin.token });
    // Again: nothing changes, so nothing is recorded.
    await users.call('PUT', `/api/users/markadmin/${frank._id}`, { token: admin.token });
    await users.call('DELETE', `/api/users/delete/${frank._id}`, { token: admin.token });
    expect(await on(2)).toEqual([
      {
        actorId: admin._id,
        action: 'user.promoted',
        target,
        before: { isAdmin: false },
        after: { isAdmin: true },
      },
      {
        actorId: admin._id,
        action: 'user.deleted',
        target,
        before: { name: 'Frank', email: frank.email, isAdmin: true },
        after: null,
      },
    ]);
  });
});

describe('deleting a user', () => {
  it("ends the user's tokens in this service and in another, and frees the address", async () => {
    const email = uniqueEmail('doomed');
    const dave = await users.signUp({ name: 'Dave', email });
    expect((await jsonCall(otherUrl, 'GET', '/api/other/mine', { token: dave.token })).body).toEqual({
      id: dave._id,
    });

    const deleted = await users.call('DELETE', `/api/users/delete/${dave._id}`, { token: admin.token });
    expect(deleted).toMatchObject({ status: 200, body: { message: 'User deleted' } });
    expect((await users.call('DELETE', `/api/users/delete/${dave._id}`, { token: admin.token })).status).toBe(
      404,
    );

    // The outcome, not how soon (a latency goal belongs in bench/): until's limit is a hang guard.
    await until(
      async () => (await jsonCall(otherUrl, 'GET', '/api/other/mine', { token: dave.token })).status === 401,
    );
    await until(
      async () =>
        (await users.call('PUT', '/api/users/profile', { body: { name: 'Ghost' }, token: dave.token }))
          .status === 401,
    );
    expect(
      (await users.call('POST', '/api/users/signin', { body: { email, password: PASSWORD } })).status,
    ).toBe(401);
    const list = await users.call<{ _id: string }[]>('GET', '/api/users/all-users', { token: admin.token });
    expect(list.body.map((user) => user._id)).not.toContain(dave._id);
    // The address is free again, for a new account with a new id.
    const reborn = await users.signUp({ name: 'Dave 2', email });
    expect(reborn._id).not.toBe(dave._id);
  });

  it('keeps refusing the deleted user after the other service restarts (it replays the events)', async () => {
    const erin = await signUp('Erin');
    await users.call('DELETE', `/api/users/delete/${erin._id}`, { token: admin.token });
    await until(
      async () => (await jsonCall(otherUrl, 'GET', '/api/other/mine', { token: erin.token })).status === 401,
    );
    await other?.close();
    other = await startGuardedService(users.publicKeyFile);
    otherUrl = await other.getUrl();
    expect((await jsonCall(otherUrl, 'GET', '/api/other/mine', { token: erin.token })).status).toBe(401);
    expect((await jsonCall(otherUrl, 'GET', '/api/other/admin', { token: admin.token })).status).toBe(200);
  });

  it('publishes user.deleted through the outbox and then purges the record', async () => {
    const frank = await signUp('Frank');
    await users.call('DELETE', `/api/users/delete/${frank._id}`, { token: admin.token });
    const nats = await connect({ servers: inject('natsUrl') });
    try {
      const jsm = await nats.jetstreamManager();
      await until(async () => {
        const last = await jsm.streams.getMessage(EVENTS_STREAM, {
          last_by_subj: eventSubject(USER_DELETED),
        });
        return (
          (JSON.parse(new TextDecoder().decode(last.data)) as { data: { userId: string } }).data.userId ===
          frank._id
        );
      });
    } finally {
      await nats.drain();
    }
    const purger = users.app.get(DeletedUsersPurger);
    const stillThere = () =>
      users.db.collection('users').countDocuments({ _id: new Types.ObjectId(frank._id) });
    await until(async () => {
      await purger.purge();
      return (await stillThere()) === 0;
    });
  });
});

describe('a password reset', () => {
  it('ends the sessions opened before it in another service too, and not the ones after', async () => {
    const email = uniqueEmail('reset');
    const gina = await users.signUp({ name: 'Gina', email });
    const mine = () => jsonCall(otherUrl, 'GET', '/api/other/mine', { token: gina.token });
    expect((await mine()).status).toBe(200);
    await users.call('POST', '/api/users/forgot-password', { body: { email } });
    const otp = await waitForCode(users.outboxDir, email);
    const newPassword = 'after-the-reset-42';
    expect(
      (await users.call('POST', '/api/users/reset-password', { body: { email, otp, newPassword } })).status,
    ).toBe(200);
    const fresh = (
      await users.call<UserInfo>('POST', '/api/users/signin', { body: { email, password: newPassword } })
    ).body;
    await until(async () => (await mine()).status === 401);
    expect((await jsonCall(otherUrl, 'GET', '/api/other/mine', { token: fresh.token })).status).toBe(200);
  });
});
