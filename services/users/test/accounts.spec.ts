import type { UserInfo } from '@shop/contracts';
import { jwtVerify, decodeProtectedHeader } from 'jose';
import { jsonCall } from '@shop/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, PASSWORD, type UsersHarness, startUsers, uniqueEmail } from './support/users.harness';

let users: UsersHarness;

beforeAll(async () => {
  users = await startUsers();
});

afterAll(async () => {
  await users?.close();
});

const signUp = (email = uniqueEmail()): Promise<UserInfo> => users.signUp({ email });

/** `POST api/users/signup` of a new account, `fields` over a valid one. */
const signUpWith = <T = Record<string, unknown>>(fields: Record<string, unknown>) =>
  users.call<T>('POST', '/api/users/signup', {
    body: {
      name: 'Ann Shopper',
      email: uniqueEmail(),
      password: PASSWORD,
      ...fields,
    },
  });

async function storedUser(email: string): Promise<Record<string, unknown> | null> {
  return users.db.collection('users').findOne({ email: email.toLowerCase() });
}

describe('sign-up', () => {
  it('creates an account and answers the user info with a token, never a hash', async () => {
    const email = uniqueEmail();
    const response = await signUpWith<UserInfo>({ name: '  Ann Shopper ', email });
    expect(response.status).toBe(201);
    expect(Object.keys(response.body).sort()).toEqual(['_id', 'email', 'isAdmin', 'name', 'token']);
    expect(response.body).toMatchObject({ name: 'Ann Shopper', email: email.toLowerCase(), isAdmin: false });
    expect(response.text).not.toMatch(/argon2|password/i);
    const stored = await storedUser(email);
    expect(String(stored?.['passwordHash'])).toMatch(/^\$argon2id\$/);
  });

  it('ignores isAdmin, _id and any other field in the body', async () => {
    const email = uniqueEmail('sneaky');
    const response = await signUpWith<UserInfo>({
      name: 'Sneaky',
      email,
      isAdmin: true,
      _id: '64b7f0000000000000000001',
      sessionsValidFrom: 0,
      role: 'admin',
    });
    expect(response.status).toBe(201);
    expect(response.body.isAdmin).toBe(false);
    expect(response.body._id).not.toBe('64b7f0000000000000000001');
    const stored = await storedUser(email);
    expect(stored).toMatchObject({ isAdmin: false });
    expect(stored).not.toHaveProperty('role');
  });

  it('answers 409 for an address already in use, whatever its case', async () => {
    const email = uniqueEmail();
    await signUp(email);
    const again = await signUpWith({ name: 'Twin', email: `  ${email.toUpperCase()} ` });
    expect(again).toMatchObject({
      status: 409,
      body: { message: 'An account with this email already exists' },
    });
  });

  it('refuses short and common passwords with 400', async () => {
    for (const [password, message] of [
      ['Ab1!xyz', 'password must be at least 8 characters'],
      ['Password1', 'password is too common, please choose another'],
    ]) {
      expect(await signUpWith({ name: 'A', password })).toMatchObject({ status: 400, body: { message } });
    }
  });

  it('refuses a malformed e-mail and missing fields with 400', async () => {
    expect(await signUpWith({ name: 'A', email: 'ann@' })).toMatchObject({
      status: 400,
      body: { message: 'email must be a valid email address' },
    });
    const empty = await users.call<{ message: string }>('POST', '/api/users/signup', { body: {} });
    expect(empty.status).toBe(400);
    expect(empty.body.message).toMatch(/name/);
    expect(empty.body.message).toMatch(/email/);
    expect(empty.body.message).toMatch(/password/);
  });
});

describe('sign-in', () => {
  it('answers the user info with an EdDSA token that verifies with the public key', async () => {
    const email = uniqueEmail();
    const created = await signUp(email);
    const response = await users.call<UserInfo>('POST', '/api/users/signin', {
      body: {
        email: email.toUpperCase(),
        password: PASSWORD,
      },
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ ...created, token: expect.any(String) });
    expect(decodeProtectedHeader(response.body.token).alg).toBe('EdDSA');
    const { payload } = await jwtVerify(response.body.token, users.publicKey, {
      algorithms: ['EdDSA'],
      issuer: 'shop-users',
      audience: 'shop',
    });
    expect(payload).toMatchObject({ sub: created._id, isAdmin: false });
    expect(typeof payload.jti).toBe('string');
    expect(payload.exp! - payload.iat!).toBe(12 * 3_600);
    await expect(
      jwtVerify(response.body.token, users.publicKey, { algorithms: ['ES256'] }),
    ).rejects.toThrow();
  });

  it('reads the same for an unknown e-mail and a wrong password', async () => {
    const email = uniqueEmail();
    await signUp(email);
    const wrong = await users.call('POST', '/api/users/signin', {
      body: { email, password: 'not-the-password' },
    });
    const unknown = await users.call('POST', '/api/users/signin', {
      body: {
        email: uniqueEmail('nobody'),
        password: PASSWORD,
      },
    });
    expect(wrong).toMatchObject({ status: 401, body: { message: 'Invalid email or password' } });
    expect(unknown.status).toBe(wrong.status);
    expect(unknown.text).toBe(wrong.text);
  });

  it('refuses operator objects and wrong types with 400, never a 500', async () => {
    const operator = await users.call<{ message: string }>('POST', '/api/users/signin', {
      body: {
        email: { $ne: null },
        password: { $ne: null },
      },
    });
    expect(operator.status).toBe(400);
    expect(operator.body.message).toMatch(/email must be a string/);
    expect(operator.body.message).toMatch(/password must be a string/);
    const numbers = await users.call('POST', '/api/users/signin', { body: { email: 42, password: 42 } });
    expect(numbers.status).toBe(400);
    const array = await users.call('POST', '/api/users/signin', { body: [{ email: 'a@b.co' }] });
    expect(array.status).toBe(400);
  });

  it('signs the seeded admin in as an admin', async () => {
    const response = await users.call<UserInfo>('POST', '/api/users/signin', { body: ADMIN });
    expect(response).toMatchObject({
      status: 200,
      body: { email: ADMIN.email, isAdmin: true, name: 'Admin' },
    });
  });
});

describe('profile', () => {
  it('answers 401 without a token', async () => {
    expect(await users.call('PUT', '/api/users/profile', { body: { name: 'X' } })).toMatchObject({
      status: 401,
      body: { message: 'Not signed in' },
    });
  });

  it('changes the name alone without the current password and answers a fresh token', async () => {
    const email = uniqueEmail();
    const me = await signUp(email);
    // What the profile screen sends: its fields, with the e-mail unchanged and the password empty.
    const response = await users.call<UserInfo>('PUT', '/api/users/profile', {
      body: { name: 'Ann Renamed', email, password: '' },
      token: me.token,
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ _id: me._id, name: 'Ann Renamed', email: email.toLowerCase() });
    expect(response.body.token).not.toBe(me.token);
    expect((await storedUser(email))?.['name']).toBe('Ann Renamed');
  });

  it('needs the right current password to change the e-mail', async () => {
    const email = uniqueEmail();
    const me = await signUp(email);
    const newEmail = uniqueEmail('moved');
    const without = await users.call('PUT', '/api/users/profile', {
      body: { email: newEmail },
      token: me.token,
    });
    expect(without).toMatchObject({
      status: 400,
      body: { message: 'currentPassword is required to change the email or password' },
    });
    const wrong = await users.call('PUT', '/api/users/profile', {
      body: { email: newEmail, currentPassword: 'guess-guess-1' },
      token: me.token,
    });
    expect(wrong).toMatchObject({ status: 400, body: { message: 'Current password is incorrect' } });
    const right = await users.call<UserInfo>('PUT', '/api/users/profile', {
      body: { email: newEmail, currentPassword: PASSWORD },
      token: me.token,
    });
    expect(right).toMatchObject({ status: 200, body: { email: newEmail.toLowerCase() } });
    expect(
      (await users.call('POST', '/api/users/signin', { body: { email: newEmail, password: PASSWORD } }))
        .status,
    ).toBe(200);
  });

  it('refuses an e-mail another account uses with 409', async () => {
    const taken = uniqueEmail('taken');
    await signUp(taken);
    const me = await signUp();
    const response = await users.call('PUT', '/api/users/profile', {
      body: { email: taken, currentPassword: PASSWORD },
      token: me.token,
    });
    expect(response).toMatchObject({
      status: 409,
      body: { message: 'An account with this email already exists' },
    });
  });

  it('changes the password with the current one, enforces the policy, and ends the other sessions', async () => {
    const email = uniqueEmail();
    const me = await signUp(email);
    const otherDevice = (
      await users.call<UserInfo>('POST', '/api/users/signin', { body: { email, password: PASSWORD } })
    ).body;
    const weak = await users.call('PUT', '/api/users/profile', {
      body: { password: '123456789', currentPassword: PASSWORD },
      token: me.token,
    });
    expect(weak).toMatchObject({
      status: 400,
      body: { message: 'password is too common, please choose another' },
    });
    const noCurrent = await users.call('PUT', '/api/users/profile', {
      body: { password: 'brand-new-pass-7' },
      token: me.token,
    });
    expect(noCurrent.status).toBe(400);

    const changed = await users.call<UserInfo>('PUT', '/api/users/profile', {
      body: { password: 'brand-new-pass-7', currentPassword: PASSWORD },
      token: me.token,
    });
    expect(changed.status).toBe(200);
    // The answer's token goes on; the tokens from before the change do not.
    expect(
      (
        await users.call('PUT', '/api/users/profile', {
          body: { name: 'Still me' },
          token: changed.body.token,
        })
      ).status,
    ).toBe(200);
    expect(
      (await users.call('PUT', '/api/users/profile', { body: { name: 'Old' }, token: otherDevice.token }))
        .status,
    ).toBe(401);
    expect(
      (await users.call('POST', '/api/users/signin', { body: { email, password: PASSWORD } })).status,
    ).toBe(401);
    expect(
      (await users.call('POST', '/api/users/signin', { body: { email, password: 'brand-new-pass-7' } }))
        .status,
    ).toBe(200);
  });

  it('ignores isAdmin, _id and unknown fields', async () => {
    const email = uniqueEmail();
    const me = await signUp(email);
    const response = await users.call<UserInfo>('PUT', '/api/users/profile', {
      body: {
        name: 'Still Ann',
        isAdmin: true,
        _id: '64b7f0000000000000000002',
        passwordHash: 'x',
        deletedAt: null,
      },
      token: me.token,
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ _id: me._id, isAdmin: false, name: 'Still Ann' });
    const stored = await storedUser(email);
    expect(stored).toMatchObject({ isAdmin: false });
    expect(String(stored?.['passwordHash'])).toMatch(/^\$argon2id\$/);
  });

  it('refuses wrong types and operator objects with 400', async () => {
    const me = await signUp();
    for (const body of [
      { name: { $ne: null } },
      { email: { $gt: '' } },
      { name: 42 },
      { name: '' },
      { password: 12345678 },
    ]) {
      const response = await users.call<{ message: string }>('PUT', '/api/users/profile', {
        body,
        token: me.token,
      });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(typeof response.body.message).toBe('string');
    }
  });
});

describe('bad requests', () => {
  it('answers malformed JSON with 400 and no stack trace', async () => {
    const response = await users.call('POST', '/api/users/signin', { raw: '{"email": "a@b.co",' });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ message: expect.any(String) });
    expect(response.text).not.toMatch(/ at |node_modules/);
  });

  it('answers a body that is not JSON, or no body at all, with a 4xx message', async () => {
    const text = await users.call('POST', '/api/users/signin', {
      raw: 'email=a@b.co',
      headers: { 'content-type': 'text/plain' },
    });
    expect(text.status).toBeGreaterThanOrEqual(400);
    expect(text.status).toBeLessThan(500);
    expect(text.body).toEqual({ message: expect.any(String) });
    const nothing = await users.call('POST', '/api/users/signin');
    expect(nothing.status).toBe(400);
    expect(nothing.body).toEqual({ message: expect.any(String) });
  });

  it('answers an oversize body with 413: the gateway past 16 KiB, before the service reads it, and the service too', async () => {
    const body = { name: 'x'.repeat(40_000), email: uniqueEmail(), password: PASSWORD };
    // A few times: the gateway must answer every one itself, never race the service to a 502.
    for (let i = 0; i < 5; i += 1) {
      const big = await users.call('POST', '/api/users/signup', { body });
      expect(big).toMatchObject({ status: 413, body: { message: 'Request size limit exceeded' } });
    }
    const huge = await users.call('POST', '/api/users/signup', { raw: Buffer.alloc(2_000_000, 0x61) });
    expect(huge).toMatchObject({ status: 413, body: { message: 'Request size limit exceeded' } });
    // Reached directly, the service refuses it as well (BODY_LIMIT_BYTES).
    const direct = await jsonCall(users.serviceUrl, 'POST', '/api/users/signup', { body });
    expect(direct).toMatchObject({ status: 413, body: { message: 'Request body is too large' } });
    expect(await users.db.collection('users').countDocuments({ email: body.email.toLowerCase() })).toBe(0);
  });

  it('refuses a long name with 400', async () => {
    expect(await signUpWith({ name: 'n'.repeat(101) })).toMatchObject({
      status: 400,
      body: { message: 'name must be shorter than or equal to 100 characters' },
    });
  });
});
