import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import {
  ORDER_CREATED,
  ORDER_DELETED,
  ORDER_DELIVERED,
  ORDER_PAID,
  type EventEnvelope,
  type Product,
} from '@shop/contracts';
import { DEFAULT_CONFIG_PATH, type RunningGateway, startGateway } from '@shop/gateway';
import {
  type ConsumerHandle,
  JetStreamEvents,
  bootstrapService,
  createServiceContext,
  loadConfig,
} from '@shop/service-kit';
import {
  type EmbeddedNats,
  type ServiceProcess,
  type TestTokens,
  createTestTokens,
  mongoUrlFor,
  startEmbeddedNats,
  startServiceProcess,
  uniqueDbName,
} from '@shop/testing';
import mongoose, { type Connection } from 'mongoose';
import { connect, type NatsConnection } from 'nats';
import pino from 'pino';
import { inject } from 'vitest';
import { AppModule } from '../../src/app.module';
import { ordersConfigSchema } from '../../src/config/orders.config';

export const NATS_REQUEST_TIMEOUT_MS = 2_000;
export const RECEIPT = '/api/media/65a1f0c2e4b0a1b2c3d4e5f6/1712345678-receipt.png';
const PRODUCT_IMAGE = '/api/media/65a1f0c2e4b0a1b2c3d4e5f7/1712345678-pistol.png';

export const ADDRESS = {
  fullName: 'Ada Lovelace',
  address: '12 Analytical Row',
  city: 'London',
  country: 'United Kingdom',
  phoneNumber: '+44 20 7946 0958',
};

export interface Answer<T = Record<string, unknown>> {
  status: number;
  headers: Headers;
  body: T;
}

export interface CallOptions {
  token?: string;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface OrdersHarness {
  /** The gateway's URL: every HTTP call of the tests goes through it. */
  url: string;
  tokens: TestTokens;
  adminToken: string;
  natsUrl: string;
  orders: NestFastifyApplication;
  products: ServiceProcess;
  /** The orders service's own database, to check what the API cannot show (nothing half-done). */
  db: Connection;
  /** Every order event published so far, in arrival order. */
  events: EventEnvelope[];
  call<T = Record<string, unknown>>(method: string, path: string, options?: CallOptions): Promise<Answer<T>>;
  /** A customer: a fresh user id and a token for it. */
  customer(): Promise<{ id: string; token: string }>;
  /** Creates a product through the catalogue's admin API. */
  createProduct(input: { price: number; countInStock: number; name?: string }): Promise<Product>;
  /** The product's stock as the catalogue answers it. */
  stockOf(productId: string): Promise<number>;
  /** Stops the products process gracefully; `startProducts` starts it again on the same database. */
  stopProducts(): Promise<void>;
  /** Kills the products process at once (SIGKILL), like a crash. */
  killProducts(): Promise<void>;
  startProducts(): Promise<void>;
  /** Waits until an event matching `match` has arrived. */
  waitForEvent(match: (event: EventEnvelope) => boolean, ms?: number): Promise<EventEnvelope>;
  close(): Promise<void>;
}

let productCounter = 0;

/** Polls `check` until it answers something other than undefined or false. */
export async function until<T>(
  check: () => Promise<T | undefined | false> | T | undefined | false,
  ms = 10_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const found = await check();
    if (found !== undefined && found !== false) return found;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A place-order body for these lines; prices the client sends are deliberately wrong. */
export function orderBody(lines: { _id: string; quantity: number }[], paymentMethod = 'cashapp') {
  return {
    orderItems: lines.map((line) => ({ ...line, name: 'client name', price: 0.01, image: '/x.png' })),
    shippingAddress: ADDRESS,
    paymentMethod,
    itemsPrice: 0.01,
    taxPrice: 0,
    shippingPrice: 0,
    totalPrice: 0.01,
  };
}

export interface HarnessOptions {
  /** Connect to this NATS instead of starting one (the caller owns it). */
  nats?: EmbeddedNats;
  /** Extra environment of the orders service. */
  env?: Record<string, string>;
  /** Extra environment of the products process. */
  productsEnv?: Record<string, string>;
}

/**
 * Checkout as it runs for real, on a NATS of its own (so no other test file's products service
 * answers our reserves): the built products service as a separate process, the orders service,
 * and the gateway in front of both. Rate limits are raised 20× (`rateLimitFactor: 20`): these
 * suites send a few hundred orders from one address within a minute, and the limits are not
 * what they test.
 */
export async function startOrdersHarness(options: HarnessOptions = {}): Promise<OrdersHarness> {
  const ownNats = options.nats ? undefined : await startEmbeddedNats();
  const nats = (options.nats ?? ownNats)!;
  const tokens = createTestTokens();
  const productsEnv = {
    MONGO_URL: mongoUrlFor(inject('mongoUrl'), uniqueDbName('products')),
    NATS_URL: nats.url,
    JWT_PUBLIC_KEY: tokens.publicKeyPem,
    SEED_DEMO_DATA: 'false',
    LOG_LEVEL: 'warn',
    // A reservation a killed products process left mid-way is finished within seconds, not 30 s.
    RESERVATION_STALE_AFTER_MS: '1000',
    RESERVATION_RECOVERY_INTERVAL_MS: '500',
    ...options.productsEnv,
  };
  const closers: (() => Promise<unknown>)[] = [];
  const closeAll = async () => {
    for (const close of closers.reverse()) await close().catch(() => undefined);
  };
  try {
    if (ownNats) closers.push(() => ownNats.stop());
    let products = await startServiceProcess('products', productsEnv);
    closers.push(() => products.stop());

    const mongoUrl = mongoUrlFor(inject('mongoUrl'), uniqueDbName('orders'));
    const config = loadConfig(ordersConfigSchema, {
      PORT: '0',
      HOST: '127.0.0.1',
      MONGO_URL: mongoUrl,
      NATS_URL: nats.url,
      LOG_LEVEL: 'silent',
      JWT_PUBLIC_KEY: tokens.publicKeyPem,
      NATS_REQUEST_TIMEOUT_MS: String(NATS_REQUEST_TIMEOUT_MS),
      STOCK_RELEASE_RETRY_MS: '300',
      CHECKOUT_RECOVERY_MS: '11000',
      ...options.env,
    });
    const context = createServiceContext('orders', config);
    const orders = await bootstrapService(context, AppModule.register(context));
    closers.push(() => orders.close());

    const gateway: RunningGateway = await startGateway({
      configPath: DEFAULT_CONFIG_PATH,
      port: 0,
      host: '127.0.0.1',
      upstreams: { orders: new URL(await orders.getUrl()).host, products: `127.0.0.1:${products.port}` },
      rateLimitFactor: 20,
      logger: pino({ level: 'silent' }),
    });
    closers.push(() => gateway.close());

    const db = await mongoose.createConnection(mongoUrl).asPromise();
    closers.push(() => db.close());

    const events: EventEnvelope[] = [];
    const natsClient: NatsConnection = await connect({
      servers: nats.url,
      maxReconnectAttempts: -1,
      reconnectTimeWait: 250,
    });
    closers.push(() => natsClient.close());
    const consumer: ConsumerHandle = await new JetStreamEvents(natsClient, pino({ level: 'silent' })).consume(
      uniqueDbName('order-events'),
      [ORDER_CREATED, ORDER_PAID, ORDER_DELIVERED, ORDER_DELETED],
      async (event) => {
        events.push(event);
      },
    );
    closers.push(() => consumer.stop());

    const adminToken = await tokens.sign({ isAdmin: true });
    const call = async <T>(
      method: string,
      path: string,
      callOptions: CallOptions = {},
    ): Promise<Answer<T>> => {
      const response = await fetch(`${gateway.url}${path}`, {
        method,
        headers: {
          ...(callOptions.body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...(callOptions.token ? { authorization: `Bearer ${callOptions.token}` } : {}),
          ...callOptions.headers,
        },
        body: callOptions.body !== undefined ? JSON.stringify(callOptions.body) : undefined,
      });
      const text = await response.text();
      return {
        status: response.status,
        headers: response.headers,
        body: (text ? JSON.parse(text) : undefined) as T,
      };
    };

    return {
      url: gateway.url,
      tokens,
      adminToken,
      natsUrl: nats.url,
      orders,
      get products() {
        return products;
      },
      db,
      events,
      call,
      async customer() {
        const id = tokens.newUserId();
        return { id, token: await tokens.sign({ sub: id }) };
      },
      async createProduct(input) {
        productCounter += 1;
        const name = input.name ?? `Test pistol ${productCounter} ${Date.now().toString(36)}`;
        const created = await call<Product>('POST', '/api/listings/create', {
          token: adminToken,
          body: {
            name,
            image: [PRODUCT_IMAGE],
            category: 'Pistols',
            brand: 'Glock',
            price: input.price,
            countInStock: input.countInStock,
            description: 'A product made by the orders tests.',
          },
        });
        if (created.status !== 201) throw new Error(`creating a product failed: ${JSON.stringify(created)}`);
        return created.body;
      },
      async stockOf(productId) {
        const answer = await call<Product>('GET', `/api/products/${productId}`);
        if (answer.status !== 200) throw new Error(`reading a product failed: ${JSON.stringify(answer)}`);
        return answer.body.countInStock;
      },
      async stopProducts() {
        await products.stop();
      },
      async killProducts() {
        await products.kill();
      },
      async startProducts() {
        // Same port, so the gateway's route to the catalogue still works.
        products = await startServiceProcess('products', { ...productsEnv, PORT: String(products.port) });
      },
      waitForEvent(match, ms = 10_000) {
        return until(() => events.find(match), ms);
      },
      close: closeAll,
    };
  } catch (error) {
    await closeAll();
    throw error;
  }
}
