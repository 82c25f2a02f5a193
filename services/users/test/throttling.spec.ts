import { DEFAULT_CONFIG_PATH, type RunningGateway, startGateway } from '@shop/gateway';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type JsonAnswer, jsonCall } from '@shop/testing';
import { PASSWORD, type UsersHarness, startUsers, uniqueEmail } from './support/users.harness';

const THROTTLED = { message: 'Too many attempts, please try again later' };
let users: UsersHarness;
/** A second gateway in front of the same service, with the production limits (factor 1). */
let strictGateway: RunningGateway;
let nextAddress = 10;

/** A client address no other test in this file uses: the gateway sees each as a different client. */
function newClient(): string {
  nextAddress += 1;
  return `127.0.0.${nextAddress}`;
}

async function signUp(email: string, from = newClient()): Promise<JsonAnswer> {
  return users.call('POST', '/api/users/signup', { body: { name: 'Tess', email, password: PASSWORD }, from });
}

function signIn(email: string, password: string, from: string, headers?: Record<string, string>) {
  return users.call('POST', '/api/users/signin', { body: { email, password }, from, headers });
}

function expectThrottled(response: JsonAnswer): void {
  expect(response.status).toBe(429);
  expect(response.body).toEqual(THROTTLED);
  const retryAfter = Number(response.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(15 * 60);
}

beforeAll(async () => {
  users = await startUsers({
    // Low limits so a few calls reach them; the gateway's own limits are raised (factor 100).
    env: {
      THROTTLE_SIGNIN_PER_ACCOUNT: '3',
      THROTTLE_SIGNIN_PER_ADDRESS: '6',
      THROTTLE_SIGNUP_PER_ACCOUNT: '5',
      THROTTLE_SIGNUP_PER_ADDRESS: '4',
      THROTTLE_FORGOT_PER_ACCOUNT: '3',
      THROTTLE_FORGOT_PER_ADDRESS: '5',
      THROTTLE_RESET_PER_ACCOUNT: '4',
      THROTTLE_RESET_PER_ADDRESS: '8',
    },
    rateLimitFactor: 100,
  });
  strictGateway = await startGateway({
    configPath: DEFAULT_CONFIG_PATH,
    port: 0,
    host: '127.0.0.1',
    upstreams: { users: new URL(users.serviceUrl).host },
    rateLimitFactor: 1,
    logger: pino({ level: 'silent' }),
  });
});

afterAll(async () => {
  await strictGateway?.close();
  await users?.close();
});

describe('sign-in throttling', () => {
  it('answers 429 with Retry-After after too many failures for one account, from any address', async () => {
    const email = uniqueEmail('target');
    expect((await signUp(email)).status).toBe(201);
    for (let attempt = 0; attempt < 3; attempt += 1) {
      expect((await signIn(email, 'wrong-password-1', newClient())).status).toBe(401);
    }
    expectThrottled(await signIn(email, 'wrong-password-1', newClient()));
    // Even the right password waits: the account is what is being guessed.
    expectThrottled(await signIn(email, PASSWORD, newClient()));

    await users.clock.aheadBy(15 * 60_000, async () => {
      expect((await signIn(email, PASSWORD, newClient())).status).toBe(200);
    });
  });

  it('does not count successful sign-ins', async () => {
    const email = uniqueEmail('regular');
    const from = newClient();
    await signUp(email, from);
    for (let attempt = 0; attempt < 8; attempt += 1)
      expect((await signIn(email, PASSWORD, from)).status).toBe(200);
  });

  it('answers 429 after too many failures from one address, whatever X-Real-IP the client sends', async () => {
    const from = newClient();
    for (let attempt = 0; attempt < 6; attempt += 1) {
      expect((await signIn(uniqueEmail('spray'), PASSWORD, from)).status).toBe(401);
    }
    expectThrottled(await signIn(uniqueEmail('spray'), PASSWORD, from));
    for (const spoofed of ['203.0.113.9', '198.51.100.1, 10.0.0.1', '::1']) {
      expectThrottled(
        await signIn(uniqueEmail('spray'), PASSWORD, from, {
          'x-real-ip': spoofed,
          'x-forwarded-for': spoofed,
        }),
      );
    }
    // Another client is not held back by it.
    expect((await signIn(uniqueEmail('spray'), PASSWORD, newClient())).status).toBe(401);
  });
});

describe('sign-up, forgot and reset throttling', () => {
  it('throttles sign-ups per address', async () => {
    const from = newClient();
    for (let attempt = 0; attempt < 4; attempt += 1)
      expect((await signUp(uniqueEmail('bulk'), from)).status).toBe(201);
    expectThrottled(await signUp(uniqueEmail('bulk'), from));
    expectThrottled(
      await users.call('POST', '/api/users/signup', {
        body: { name: 'T', email: uniqueEmail('bulk'), password: PASSWORD },
        from,
        headers: { 'x-real-ip': '192.0.2.44' },
      }),
    );
  });

  it('throttles sign-ups per e-mail address', async () => {
    const email = uniqueEmail('again');
    expect((await signUp(email)).status).toBe(201);
    for (let attempt = 0; attempt < 4; attempt += 1) expect((await signUp(email)).status).toBe(409);
    expectThrottled(await signUp(email));
  });

  it('throttles reset codes per account alike for known and unknown addresses', async () => {
    const known = uniqueEmail('forgetful');
    await signUp(known);
    const unknown = uniqueEmail('nobody');
    for (const email of [known, unknown]) {
      for (let attempt = 0; attempt < 3; attempt += 1) {
        expect(
          (await users.call('POST', '/api/users/forgot-password', { body: { email }, from: newClient() }))
            .status,
        ).toBe(200);
      }
      expectThrottled(
        await users.call('POST', '/api/users/forgot-password', { body: { email }, from: newClient() }),
      );
    }
  });

  it('throttles reset codes per address', async () => {
    const from = newClient();
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const email = uniqueEmail('many');
      expect((await users.call('POST', '/api/users/forgot-password', { body: { email }, from })).status).toBe(
        200,
      );
    }
    expectThrottled(
      await users.call('POST', '/api/users/forgot-password', { body: { email: uniqueEmail('many') }, from }),
    );
  });

  it('throttles reset attempts per account', async () => {
    const email = uniqueEmail('guessed');
    await signUp(email);
    const attempt = () =>
      users.call('POST', '/api/users/reset-password', {
        body: { email, otp: '000000', newPassword: 'fresh-start-2024x' },
        from: newClient(),
      });
    for (let count = 0; count < 4; count += 1) expect((await attempt()).status).toBe(400);
    expectThrottled(await attempt());
  });
});

describe('the gateway as a second layer', () => {
  it("answers 429 from the gateway's per-IP limit on sign-in (10 a minute, factor 1)", async () => {
    const email = uniqueEmail('busy');
    await signUp(email);
    const from = newClient();
    const through = (path: string) =>
      jsonCall(strictGateway.url, 'POST', path, { body: { email, password: PASSWORD }, from });
    for (let attempt = 0; attempt < 10; attempt += 1)
      expect((await through('/api/users/signin')).status).toBe(200);
    const refused = await through('/api/users/signin');
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ message: 'API rate limit exceeded' });
  });
});
