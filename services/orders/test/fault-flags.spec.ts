import { flagSetFile } from '@shop/service-kit/testing';
import { until } from '@shop/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NATS_REQUEST_TIMEOUT_MS, type OrdersHarness, startOrdersHarness } from './support/orders.harness';

// The fault flags orders and products act on, in flagd's format, read by both from one file as
// FLAGS_SOURCE=file://… (the provider's file mode; the cluster syncs the same set from the data service).
const flagFile = flagSetFile({
  orderPlacementFailure: { off: 0, '100%': 1 },
  reservationReplyDelay: { off: 0, late: NATS_REQUEST_TIMEOUT_MS + 2_000 },
});

let shop: OrdersHarness;
let soldOut: string;
let probeToken: string;

/**
 * Switches the flags in the file and waits until the services act on it: an order for a sold-out product
 * answers `status` (409 out of stock with every flag off; 503 once orders refuses, or once products'
 * answer comes after orders' timeout). No stock moves either way.
 */
async function switched(chosen: Parameters<typeof flagFile.choose>[0], status: number): Promise<void> {
  flagFile.choose(chosen);
  const probe = async () =>
    (await shop.placeOrder(probeToken, [{ _id: soldOut, quantity: 1 }])).status === status;
  await until(probe, { timeoutMs: 30_000, intervalMs: 500 });
}

beforeAll(async () => {
  const env = { FLAGS_SOURCE: flagFile.source };
  shop = await startOrdersHarness({ env, productsEnv: env });
  probeToken = (await shop.customer()).token;
  // A product is listed with stock: its one unit bought, it is sold out.
  soldOut = (await shop.createProduct({ price: 10, countInStock: 1 }))._id;
  expect((await shop.placeOrder(probeToken, [{ _id: soldOut, quantity: 1 }])).status).toBe(201);
});

afterAll(async () => {
  await shop?.close();
  flagFile.remove();
});

describe('fault flags in the checkout', () => {
  it('orderPlacementFailure refuses orders with a 503 before any stock is taken, and stops when off', async () => {
    const product = await shop.createProduct({ price: 10, countInStock: 5 });
    const { token } = await shop.customer();
    const ordersBefore = await shop.storedOrders();

    await switched({ orderPlacementFailure: '100%' }, 503);
    for (let i = 0; i < 3; i += 1) {
      const refused = await shop.placeOrder(token, [{ _id: product._id, quantity: 1 }]);
      expect(refused.status).toBe(503);
      expect(refused.body).toEqual({ message: 'Orders cannot be taken right now, please try again' });
    }
    expect(await shop.storedOrders()).toBe(ordersBefore);
    expect(await shop.stockOf(product._id)).toBe(5);

    await switched({}, 409);
    const placed = await shop.placeOrder(token, [{ _id: product._id, quantity: 1 }]);
    expect(placed.status).toBe(201);
    expect(await shop.stockOf(product._id)).toBe(4);
  });

  it("reservationReplyDelay past orders' timeout fails the checkout and gives every unit back", async () => {
    const product = await shop.createProduct({ price: 10, countInStock: 5 });
    const { token } = await shop.customer();
    const ordersBefore = await shop.storedOrders();

    await switched({ reservationReplyDelay: 'late' }, 503);
    const late = await shop.placeOrder(token, [{ _id: product._id, quantity: 2 }]);
    expect(late.status).toBe(503);
    expect(late.body).toEqual({ message: 'The products service did not answer in time, please try again' });
    expect(await shop.storedOrders()).toBe(ordersBefore);
    // Products took the stock and answered late; orders gives the reservation back.
    await until(
      async () => (await shop.stockOf(product._id)) === 5 && (await shop.pendingReservations()) === 0,
      30_000,
    );

    await switched({}, 409);
    const placed = await shop.placeOrder(token, [{ _id: product._id, quantity: 2 }]);
    expect(placed.status).toBe(201);
    expect(await shop.stockOf(product._id)).toBe(3);
  });
});
