import {
  ADMIN_ACTION,
  ORDER_CREATED,
  ORDER_CANCELLED,
  ORDER_REFUNDED,
  ORDER_DELETED,
  ORDER_DELIVERED,
  ORDER_PAID,
  type Order,
  type OrderDeleted,
  type Product,
} from '@shop/contracts';
import { type ServiceUnderTest, startServiceUnderTest } from '@shop/service-kit/testing';
import {
  type EmbeddedNats,
  type JsonAnswer,
  type ServiceProcess,
  createTestTokens,
  mongoUrlFor,
  startEmbeddedNats,
  startServiceProcess,
  uniqueDbName,
} from '@shop/testing';
import { type Connection, createConnection } from 'mongoose';
import { inject } from 'vitest';
import { AppModule } from '../../src/app.module';
import { type OrdersConfig, ordersConfigSchema } from '../../src/config/orders.config';

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

/**
 * The orders service under test (its app, gateway, database, tokens, events and `call`), with the
 * catalogue beside it.
 */
export interface OrdersHarness extends ServiceUnderTest<OrdersConfig> {
  natsUrl: string;
  /**
   * What products did with an order's stock: its reservation's state in products' own database
   * (`held`, `sold`, `released`, `closed`), or undefined for none.
   */
  reservationState(orderId: string): Promise<string | undefined>;
  products: ServiceProcess;
  /** A customer: a fresh user id and a token for it. */
  customer(): Promise<{ id: string; token: string }>;
  /** `POST api/orders` of these lines (the body `orderBody` makes) with `token`. */
  placeOrder(
    token: string | undefined,
    lines: OrderLine[],
    options?: { paymentMethod?: string; headers?: Record<string, string> },
  ): Promise<JsonAnswer<Order & { message?: string }>>;
  /** `DELETE api/orders/delete/{orderId}` as an admin. */
  deleteOrder(orderId: string): Promise<JsonAnswer<OrderDeleted>>;
  /** How many orders are stored, deleted ones too. */
  storedOrders(): Promise<number>;
  /** How many checkouts hold stock without a stored order yet. */
  pendingReservations(): Promise<number>;
  /** Creates a product through the catalogue's admin API. */
  createProduct(input: { price: number; countInStock: number; name?: string }): Promise<Product>;
  /** The product's stock as the catalogue answers it. */
  stockOf(productId: string): Promise<number>;
  /** Stops the products process gracefully; `startProducts` starts it again on the same database. */
  stopProducts(): Promise<void>;
  /** Kills the products process at once (SIGKILL), like a crash. */
  killProducts(): Promise<void>;
  startProducts(): Promise<void>;
}

let productCounter = 0;

/** A line of a checkout: a product's id and how many. */
export interface OrderLine {
  _id: string;
  quantity: number;
}

/** A place-order body for these lines; prices the client sends are deliberately wrong. */
export function orderBody(lines: OrderLine[], paymentMethod = 'cashapp') {
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

    const orders = await startServiceUnderTest({
      name: 'orders',
      configSchema: ordersConfigSchema,
      module: (context) => AppModule.register(context),
      natsUrl: nats.url,
      tokens,
      env: {
        NATS_REQUEST_TIMEOUT_MS: String(NATS_REQUEST_TIMEOUT_MS),
        STOCK_RELEASE_RETRY_MS: '300',
        CHECKOUT_RECOVERY_MS: '11000',
        ...options.env,
      },
      events: [
        ORDER_CREATED,
        ORDER_PAID,
        ORDER_DELIVERED,
        ORDER_CANCELLED,
        ORDER_REFUNDED,
        ORDER_DELETED,
        ADMIN_ACTION,
      ],
      upstreams: { products: `127.0.0.1:${products.port}` },
      rateLimitFactor: 20,
    });
    closers.push(() => orders.close());
    const { adminToken, call, db } = orders;
    let productsDb: Connection | undefined;
    closers.push(async () => productsDb?.close());

    return {
      ...orders,
      natsUrl: nats.url,
      async reservationState(orderId) {
        productsDb ??= await createConnection(productsEnv.MONGO_URL).asPromise();
        const reservations = productsDb.collection<{ _id: string; state: string }>('stock_reservations');
        return (await reservations.findOne({ _id: orderId }))?.state;
      },
      get products() {
        return products;
      },
      async customer() {
        const id = tokens.newUserId();
        return { id, token: await tokens.sign({ sub: id }) };
      },
      placeOrder(token, lines, { paymentMethod, headers } = {}) {
        return call<Order & { message?: string }>('POST', '/api/orders', {
          token,
          headers,
          body: orderBody(lines, paymentMethod),
        });
      },
      deleteOrder: (orderId) =>
        call<OrderDeleted>('DELETE', `/api/orders/delete/${orderId}`, { token: adminToken }),
      storedOrders: () => db.collection('orders').countDocuments(),
      pendingReservations: () => db.collection('pending_reservations').countDocuments(),
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
      close: closeAll,
    };
  } catch (error) {
    await closeAll();
    throw error;
  }
}
