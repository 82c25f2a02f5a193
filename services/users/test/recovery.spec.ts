import type { UserInfo } from '@shop/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PASSWORD,
  type UsersHarness,
  mailsTo,
  startUsers,
  uniqueEmail,
  waitForCode,
} from './support/users.harness';

const FORGOT_ANSWER = { message: 'If an account uses this email, a reset code has been sent to it' };
const INVALID_CODE = { message: 'Invalid or expired reset code' };
let users: UsersHarness;

beforeAll(async () => {
  users = await startUsers();
});

afterAll(async () => {
  await users?.close();
});

const account = (): Promise<UserInfo> => users.signUp({ name: 'Rita', email: uniqueEmail('rita') });

async function forgot(email: string) {
  return users.call('POST', '/api/users/forgot-password', { body: { email } });
}

/** Asks for a reset code for `email` and answers it once it is mailed (the `previous`+1th mail). */
async function codeFor(email: string, previous = 0): Promise<string> {
  await forgot(email);
  return waitForCode(users.outboxDir, email, previous);
}

async function reset(email: string, otp: string, newPassword = 'fresh-start-2024x') {
  return users.call('POST', '/api/users/reset-password', { body: { email, otp, newPassword } });
}

/** A 6-digit code that is not `code`. */
const wrongCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

describe('forgot password', () => {
  it('answers alike for known and unknown addresses and mails a code only to the known one', async () => {
    const rita = await account();
    const unknown = uniqueEmail('ghost');
    const known = await forgot(rita.email.toUpperCase());
    const stranger = await forgot(unknown);
    expect(known).toMatchObject({ status: 200, body: FORGOT_ANSWER });
    expect(stranger.status).toBe(known.status);
    expect(stranger.text).toBe(known.text);
    const code = await waitForCode(users.outboxDir, rita.email);
    expect(code).toMatch(/^\d{6}$/);
    expect(mailsTo(users.outboxDir, unknown)).toEqual([]);
  });

  it('answers a malformed or missing address with 400', async () => {
    expect(await forgot('not-an-address')).toMatchObject({
      status: 400,
      body: { message: 'email must be a valid email address' },
    });
    expect(
      (await users.call('POST', '/api/users/forgot-password', { body: { email: { $ne: null } } })).status,
    ).toBe(400);
    expect((await users.call('POST', '/api/users/forgot-password', { body: {} })).status).toBe(400);
  });

  it('stores the code hashed, never in plain text', async () => {
    const rita = await account();
    const code = await codeFor(rita.email);
    const stored = await users.db.collection('users').findOne({ email: rita.email });
    const reset = stored?.['passwordReset'] as { codeHash: string; attempts: number };
    expect(reset.codeHash).toMatch(/^\$argon2id\$/);
    expect(reset.attempts).toBe(0);
    expect(JSON.stringify(stored)).not.toContain(code);
  });
});

describe('reset password', () => {
  it('sets the new password with the code, once, and ends the sessions opened before', async () => {
    const rita = await account();
    const code = await codeFor(rita.email);
    expect(await reset(rita.email, code)).toMatchObject({
      status: 200,
      body: { message: 'Password reset successfully' },
    });
    expect(await reset(rita.email, code, 'another-fresh-one-9')).toMatchObject({
      status: 400,
      body: INVALID_CODE,
    });

    expect(
      (await users.call('POST', '/api/users/signin', { body: { email: rita.email, password: PASSWORD } }))
        .status,
    ).toBe(401);
    const fresh = await users.call<UserInfo>('POST', '/api/users/signin', {
      body: {
        email: rita.email,
        password: 'fresh-start-2024x',
      },
    });
    expect(fresh.status).toBe(200);
    // The token from before the reset is refused; the one signed in right after it works.
    expect(
      (await users.call('PUT', '/api/users/profile', { body: { name: 'Old' }, token: rita.token })).status,
    ).toBe(401);
    expect(
      (await users.call('PUT', '/api/users/profile', { body: { name: 'New' }, token: fresh.body.token }))
        .status,
    ).toBe(200);
    const stored = await users.db.collection('users').findOne({ email: rita.email });
    expect(stored?.['passwordReset']).toBeNull();
  });

  it('refuses a code after 10 minutes', async () => {
    const rita = await account();
    const code = await codeFor(rita.email);
    await users.clock.aheadBy(10 * 60_000 + 1_000, async () => {
      expect(await reset(rita.email, code)).toMatchObject({ status: 400, body: INVALID_CODE });
    });
  });

  it('accepts a code just before its 10 minutes are up', async () => {
    const rita = await account();
    const code = await codeFor(rita.email);
    await users.clock.aheadBy(9 * 60_000 + 50_000, async () => {
      expect((await reset(rita.email, code)).status).toBe(200);
    });
  });

  it('kills the code after 5 wrong tries, even for the right code after them', async () => {
    const rita = await account();
    const code = await codeFor(rita.email);
    for (let attempt = 0; attempt < 5; attempt += 1) {
      expect(await reset(rita.email, wrongCode(code))).toMatchObject({ status: 400, body: INVALID_CODE });
    }
    expect(await reset(rita.email, code)).toMatchObject({ status: 400, body: INVALID_CODE });
    expect(
      (await users.call('POST', '/api/users/signin', { body: { email: rita.email, password: PASSWORD } }))
        .status,
    ).toBe(200);
  });

  it('accepts the right code after fewer than 5 wrong tries', async () => {
    const rita = await account();
    const code = await codeFor(rita.email);
    for (let attempt = 0; attempt < 4; attempt += 1)
      expect((await reset(rita.email, wrongCode(code))).status).toBe(400);
    expect((await reset(rita.email, code)).status).toBe(200);
  });

  it("refuses another account's address, or an address without a code, in the same words", async () => {
    const rita = await account();
    const sam = await account();
    const code = await codeFor(rita.email);
    expect(await reset(sam.email, code)).toMatchObject({ status: 400, body: INVALID_CODE });
    expect(await reset(uniqueEmail('nobody'), code)).toMatchObject({ status: 400, body: INVALID_CODE });
    expect((await reset(rita.email, code)).status).toBe(200);
  });

  it('replaces an earlier code with a new one', async () => {
    const rita = await account();
    const first = await codeFor(rita.email);
    const second = await codeFor(rita.email, 1);
    if (first !== second) expect((await reset(rita.email, first)).status).toBe(400);
    expect((await reset(rita.email, second)).status).toBe(200);
  });

  it('refuses malformed input with 400 without using up a try', async () => {
    const rita = await account();
    const code = await codeFor(rita.email);
    expect(await reset(rita.email, '12ab56')).toMatchObject({
      status: 400,
      body: { message: 'otp must be the 6-digit code from the e-mail' },
    });
    expect(
      (
        await users.call('POST', '/api/users/reset-password', {
          body: { email: rita.email, otp: { $ne: null } },
        })
      ).status,
    ).toBe(400);
    expect(await reset(rita.email, code, 'qwerty123')).toMatchObject({
      status: 400,
      body: { message: 'password is too common, please choose another' },
    });
    expect((await reset(rita.email, code, 'short')).status).toBe(400);
    const stored = await users.db.collection('users').findOne({ email: rita.email });
    expect((stored?.['passwordReset'] as { attempts: number }).attempts).toBe(0);
    expect((await reset(rita.email, code)).status).toBe(200);
  });
});
