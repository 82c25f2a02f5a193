import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { type EventEnvelope, SETTINGS_UPDATED, type SiteSettings } from '@shop/contracts';
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
import { dataConfigSchema } from '../src/config/data.config';
import { SiteSettingsService } from '../src/settings/site-settings.service';

const tokens = createTestTokens();
const logo = '/api/media/65a1f0c2e4b0a1b2c3d4e5f6/1712345678-logo.png';
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

/** Calls the data API through the gateway, as the storefront does. */
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

async function firstRecord(): Promise<SiteSettings> {
  const { body } = await call<SiteSettings[]>('GET', '/api/data/all-data');
  return body[0]!;
}

beforeAll(async () => {
  const config = loadConfig(dataConfigSchema, {
    PORT: '0',
    HOST: '127.0.0.1',
    MONGO_URL: mongoUrlFor(inject('mongoUrl'), uniqueDbName('data')),
    NATS_URL: inject('natsUrl'),
    LOG_LEVEL: 'silent',
    DEFAULT_SITE_NAME: 'Test Arms',
    JWT_PUBLIC_KEY: tokens.publicKeyPem,
  });
  const context = createServiceContext('data', config);
  app = await bootstrapService(context, AppModule.register(context));
  gateway = await startGateway({
    configPath: DEFAULT_CONFIG_PATH,
    port: 0,
    host: '127.0.0.1',
    upstreams: { data: new URL(await app.getUrl()).host },
    // This suite makes a few dozen calls from one address; the default limit is kept.
    rateLimitFactor: 1,
    logger: pino({ level: 'silent' }),
  });
  nats = await connect({ servers: inject('natsUrl') });
  consumer = await new JetStreamEvents(nats, pino({ level: 'silent' })).consume(
    uniqueDbName('data-events'),
    [SETTINGS_UPDATED],
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

describe('GET api/data/all-data', () => {
  it('answers the seeded site settings as a public list', async () => {
    const { status, body } = await call<SiteSettings[]>('GET', '/api/data/all-data');
    expect(status).toBe(200);
    expect(body).toEqual([
      { _id: expect.stringMatching(/^[0-9a-f]{24}$/), siteName: 'Test Arms', currency: '$', logo: '' },
    ]);
  });

  it('seeds the default record only once', async () => {
    await app.get(SiteSettingsService).onApplicationBootstrap();
    const { body } = await call<SiteSettings[]>('GET', '/api/data/all-data');
    expect(body).toHaveLength(1);
  });
});

describe('PUT api/data/update-data', () => {
  it('lets an admin change the settings, trims them, and publishes settings.updated', async () => {
    const { _id } = await firstRecord();
    const update = { id: _id, siteName: '  Sentinel Outfitters ', currency: '€', logo };
    const { status, body } = await call('PUT', '/api/data/update-data', { token: adminToken, body: update });
    expect(status).toBe(200);
    expect(body).toEqual({ _id, siteName: 'Sentinel Outfitters', currency: '€', logo });
    expect(await firstRecord()).toEqual({ _id, siteName: 'Sentinel Outfitters', currency: '€', logo });

    const event = await until(() =>
      events.find((e) => (e.data as { siteName: string }).siteName === 'Sentinel Outfitters'),
    );
    expect(event).toMatchObject({
      type: 'settings.updated',
      data: { settingsId: _id, siteName: 'Sentinel Outfitters', currency: '€', logo },
    });
  });

  it('accepts an empty logo and ignores fields it does not know', async () => {
    const { _id } = await firstRecord();
    const { status, body } = await call('PUT', '/api/data/update-data', {
      token: adminToken,
      body: {
        id: _id,
        siteName: 'Test Arms',
        currency: '$',
        logo: '',
        _id: 'ffffffffffffffffffffffff',
        outbox: [],
      },
    });
    expect(status).toBe(200);
    expect(body).toEqual({ _id, siteName: 'Test Arms', currency: '$', logo: '' });
  });

  it('answers 401 without a token and 403 to a customer, changing nothing', async () => {
    const before = await firstRecord();
    const update = { id: before._id, siteName: 'Hacked', currency: '$', logo: '' };
    expect(await call('PUT', '/api/data/update-data', { body: update })).toEqual({
      status: 401,
      body: { message: 'Not signed in' },
    });
    expect(await call('PUT', '/api/data/update-data', { token: customerToken, body: update })).toEqual({
      status: 403,
      body: { message: 'Admin access required' },
    });
    expect(await firstRecord()).toEqual(before);
  });

  it('refuses a missing or too long site name or currency with 400', async () => {
    const { _id } = await firstRecord();
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ siteName: '   ' }, /siteName is required/],
      [{ siteName: undefined }, /siteName/],
      [{ siteName: 'x'.repeat(61) }, /siteName must be at most 60 characters/],
      [{ currency: '' }, /currency is required/],
      [{ currency: 'EUROS!' }, /currency must be at most 5 characters/],
      [{ currency: 5 }, /currency must be a string/],
    ];
    for (const [change, message] of cases) {
      const body = { id: _id, siteName: 'Test Arms', currency: '$', logo: '', ...change };
      const answer = await call<{ message: string }>('PUT', '/api/data/update-data', {
        token: adminToken,
        body,
      });
      expect(answer.status, JSON.stringify(change)).toBe(400);
      expect(answer.body.message).toMatch(message);
    }
  });

  it('accepts only our own media URLs as the logo', async () => {
    const { _id } = await firstRecord();
    for (const bad of [
      'https://evil.example/logo.png',
      'javascript:alert(1)',
      '/api/media/x/logo.png',
      null,
    ]) {
      const answer = await call<{ message: string }>('PUT', '/api/data/update-data', {
        token: adminToken,
        body: { id: _id, siteName: 'Test Arms', currency: '$', logo: bad },
      });
      expect(answer.status, String(bad)).toBe(400);
      expect(answer.body.message).toMatch(/logo must be an image uploaded to this shop/);
    }
  });

  it('answers 400 for a malformed id and 404 for a record that does not exist', async () => {
    const body = { siteName: 'Test Arms', currency: '$', logo: '' };
    const malformed = await call<{ message: string }>('PUT', '/api/data/update-data', {
      token: adminToken,
      body: { ...body, id: 'not-an-id' },
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body.message).toMatch(/id must be the id of a settings record/);
    expect(
      await call('PUT', '/api/data/update-data', {
        token: adminToken,
        body: { ...body, id: 'ffffffffffffffffffffffff' },
      }),
    ).toEqual({ status: 404, body: { message: 'Settings not found' } });
  });
});
