import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { type EventEnvelope, WALLET_UPDATED, type Wallet } from '@shop/contracts';
import { DEFAULT_CONFIG_PATH, type RunningGateway, startGateway } from '@shop/gateway';
import {
  type ConsumerHandle,
  JetStreamEvents,
  bootstrapService,
  createServiceContext,
  loadConfig,
} from '@shop/service-kit';
import { createTestTokens, mongoUrlFor, uniqueDbName } from '@shop/testing';
import { connect, type NatsConnection } from 'nats';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { AppModule } from '../src/app.module';
import { walletConfigSchema } from '../src/config/wallet.config';
import { WalletsService } from '../src/wallets/wallets.service';

const tokens = createTestTokens();
const qrCode = '/api/media/65a1f0c2e4b0a1b2c3d4e5f6/1712345678-btc-qr.png';
let app: NestFastifyApplication;
let gateway: RunningGateway;
let nats: NatsConnection;
let consumer: ConsumerHandle;
const events: EventEnvelope[] = [];
let adminToken: string;
let customerToken: string;

interface Answer<T> {
  status: number;
  body: T;
}

/** Calls the wallet API through the gateway, as the storefront does. */
async function call<T = Record<string, unknown>>(
  method: string,
  path: string,
  options: { token?: string; body?: unknown } = {},
): Promise<Answer<T>> {
  const response = await fetch(`${gateway.url}${path}`, {
    method,
    headers: {
      ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
    },
    body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
  });
  return { status: response.status, body: (await response.json()) as T };
}

async function until<T>(find: () => T | undefined, ms = 5_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const found = find();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const allWallets = async () => (await call<Wallet[]>('GET', '/api/wallet/all-wallets')).body;

beforeAll(async () => {
  const config = loadConfig(walletConfigSchema, {
    PORT: '0',
    HOST: '127.0.0.1',
    MONGO_URL: mongoUrlFor(inject('mongoUrl'), uniqueDbName('wallet')),
    NATS_URL: inject('natsUrl'),
    LOG_LEVEL: 'silent',
    JWT_PUBLIC_KEY: tokens.publicKeyPem,
  });
  const context = createServiceContext('wallet', config);
  app = await bootstrapService(context, AppModule.register(context));
  gateway = await startGateway({
    configPath: DEFAULT_CONFIG_PATH,
    port: 0,
    host: '127.0.0.1',
    upstreams: { wallet: new URL(await app.getUrl()).host },
    // This suite makes a few dozen calls from one address; the default limit is kept.
    rateLimitFactor: 1,
    logger: pino({ level: 'silent' }),
  });
  nats = await connect({ servers: inject('natsUrl') });
  consumer = await new JetStreamEvents(nats, pino({ level: 'silent' })).consume(
    uniqueDbName('wallet-events'),
    [WALLET_UPDATED],
    async (event) => {
      events.push(event);
    },
  );
  adminToken = await tokens.sign({ isAdmin: true });
  customerToken = await tokens.sign({ isAdmin: false });
});

afterAll(async () => {
  await consumer?.stop();
  await nats?.drain();
  await gateway?.close();
  await app?.close();
});

describe('GET api/wallet/all-wallets', () => {
  it('answers a seeded wallet for each payment method, publicly, in the payment screen order', async () => {
    const { status, body } = await call<Wallet[]>('GET', '/api/wallet/all-wallets');
    expect(status).toBe(200);
    expect(body).toEqual(
      ['bitcoin', 'apple Pay', 'cashapp'].map((paymentMethod) => ({
        _id: expect.stringMatching(/^[0-9a-f]{24}$/),
        paymentMethod,
        paymentDetails: '',
        qrCode: '',
      })),
    );
  });

  it('seeds each wallet only once and never overwrites one', async () => {
    await call('PUT', '/api/wallet/update-wallet', {
      token: adminToken,
      body: { coin: 'cashapp', walletId: '$sentinel', qrCode: '' },
    });
    await app.get(WalletsService).onApplicationBootstrap();
    const wallets = await allWallets();
    expect(wallets).toHaveLength(3);
    expect(wallets.find((w) => w.paymentMethod === 'cashapp')?.paymentDetails).toBe('$sentinel');
  });
});

describe('PUT api/wallet/update-wallet', () => {
  it('lets an admin set the payment details and QR code, and publishes wallet.updated', async () => {
    const { status, body } = await call<Wallet>('PUT', '/api/wallet/update-wallet', {
      token: adminToken,
      body: { coin: 'bitcoin', walletId: '  bc1qexampleaddress0000 ', qrCode },
    });
    expect(status).toBe(200);
    expect(body).toEqual({
      _id: expect.any(String),
      paymentMethod: 'bitcoin',
      paymentDetails: 'bc1qexampleaddress0000',
      qrCode,
    });
    expect((await allWallets())[0]).toEqual(body);
    const event = await until(() => events.find((e) => (e.data as { qrCode: string }).qrCode === qrCode));
    expect(event).toMatchObject({
      type: 'wallet.updated',
      data: {
        walletId: body._id,
        paymentMethod: 'bitcoin',
        paymentDetails: 'bc1qexampleaddress0000',
        qrCode,
      },
    });
  });

  it('accepts an empty QR code', async () => {
    const { status, body } = await call<Wallet>('PUT', '/api/wallet/update-wallet', {
      token: adminToken,
      body: { coin: 'apple Pay', walletId: 'pay@sentinel.example', qrCode: '' },
    });
    expect(status).toBe(200);
    expect(body).toMatchObject({
      paymentMethod: 'apple Pay',
      paymentDetails: 'pay@sentinel.example',
      qrCode: '',
    });
  });

  it('answers 401 without a token and 403 to a customer, changing nothing', async () => {
    const before = await allWallets();
    const update = { coin: 'bitcoin', walletId: 'attacker-wallet', qrCode: '' };
    expect(await call('PUT', '/api/wallet/update-wallet', { body: update })).toEqual({
      status: 401,
      body: { message: 'Not signed in' },
    });
    expect(await call('PUT', '/api/wallet/update-wallet', { token: customerToken, body: update })).toEqual({
      status: 403,
      body: { message: 'Admin access required' },
    });
    expect(await allWallets()).toEqual(before);
  });

  it('refuses an unknown coin, empty or too long details and foreign QR codes with 400', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ coin: 'PayPal' }, /coin must be one of: bitcoin, apple Pay, cashapp/],
      [{ coin: undefined }, /coin must be one of/],
      [{ walletId: '  ' }, /walletId is required/],
      [{ walletId: 'x'.repeat(201) }, /walletId must be shorter than or equal to 200 characters/],
      [{ walletId: { $ne: '' } }, /walletId must be a string/],
      [{ qrCode: 'https://evil.example/qr.png' }, /qrCode must be an image uploaded to this shop/],
      [
        { qrCode: '/api/media/65a1f0c2e4b0a1b2c3d4e5f6/../../x' },
        /qrCode must be an image uploaded to this shop/,
      ],
    ];
    const before = await allWallets();
    for (const [change, message] of cases) {
      const body = { coin: 'bitcoin', walletId: 'bc1qvalid', qrCode: '', ...change };
      const answer = await call<{ message: string }>('PUT', '/api/wallet/update-wallet', {
        token: adminToken,
        body,
      });
      expect(answer.status, JSON.stringify(change)).toBe(400);
      expect(answer.body.message).toMatch(message);
    }
    expect(await allWallets()).toEqual(before);
  });
});
