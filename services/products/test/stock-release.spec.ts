import { ORDER_PAID, PRODUCTS_RELEASE, type OrderPaidEvent } from '@shop/contracts';
import { JetStreamEvents, newEvent } from '@shop/service-kit';
import { refusalOf } from '@shop/service-kit/testing';
import { type NatsConnection, connect } from 'nats';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type ProductsHarness, newId, startProducts } from './support/products.harness';

// products.release and the holds a reservation leaves on its products: stock given back once, however
// often the release comes, and never for an order that was paid (order.paid drops its holds).

let shop: ProductsHarness;
let nats: NatsConnection;

beforeAll(async () => {
  shop = await startProducts();
  nats = await connect({ servers: inject('natsUrl') });
});

afterAll(async () => {
  await nats?.close();
  await shop?.close();
});

/** Publishes `order.paid` the way the orders service's relay does. */
async function orderPaid(orderId: string, status: OrderPaidEvent['data']['status']): Promise<void> {
  const event: OrderPaidEvent = newEvent(ORDER_PAID, {
    orderId,
    userId: newId(),
    status,
    by: status === 'Paid' ? 'admin' : 'customer',
    paidAt: new Date().toISOString(),
    totalPrice: 10,
  });
  await new JetStreamEvents(nats, pino({ level: 'silent' })).publish(event);
}

describe('products.release', () => {
  it('gives the stock back once, however often it is sent', async () => {
    const [a, b] = [await shop.productInStock(6), await shop.productInStock(2)];
    const reservationId = newId();
    const request = {
      reservationId,
      items: [
        { productId: a._id, quantity: 4 },
        { productId: b._id, quantity: 2 },
      ],
    };
    await shop.reserve(request);
    expect([await shop.stockOf(a._id), await shop.stockOf(b._id)]).toEqual([2, 0]);
    expect(await shop.holdsOf(a._id)).toEqual([{ id: reservationId, quantity: 4, at: expect.any(Date) }]);
    const replies = await Promise.all([
      shop.release(reservationId),
      shop.release(reservationId),
      shop.release(reservationId),
    ]);
    expect(replies.filter((reply) => reply.released)).toHaveLength(1);
    expect(await shop.release(reservationId)).toEqual({ reservationId, released: false });
    expect([await shop.stockOf(a._id), await shop.stockOf(b._id)]).toEqual([6, 2]);
    expect([await shop.holdsOf(a._id), await shop.holdsOf(b._id)]).toEqual([[], []]);
    // A released reservation cannot be taken again under the same id.
    expect(await refusalOf(shop.reserve(request))).toEqual({
      status: 409,
      message: 'This reservation was released',
    });
    expect(await shop.stockOf(a._id)).toBe(6);
  });

  it('remembers a release that overtook its reserve, so the late reserve takes nothing', async () => {
    const a = await shop.productInStock(3);
    const reservationId = newId();
    expect(await shop.release(reservationId)).toEqual({ reservationId, released: false });
    expect(
      (await refusalOf(shop.reserve({ reservationId, items: [{ productId: a._id, quantity: 1 }] }))).status,
    ).toBe(409);
    expect(await shop.stockOf(a._id)).toBe(3);
  });

  it('answers released: false for a refused reservation, giving nothing back twice', async () => {
    const a = await shop.productInStock(1);
    const reservationId = newId();
    await refusalOf(shop.reserve({ reservationId, items: [{ productId: a._id, quantity: 2 }] }));
    expect(await shop.release(reservationId)).toEqual({ reservationId, released: false });
    expect(await shop.stockOf(a._id)).toBe(1);
  });

  it('refuses a malformed release (400)', async () => {
    expect((await refusalOf(shop.command(PRODUCTS_RELEASE, { reservationId: { $ne: null } }))).status).toBe(
      400,
    );
  });
});

describe('holds on products', () => {
  it('records each line on its product in the same write, and never shows it through the API', async () => {
    const a = await shop.productInStock(5);
    const [first, second] = [newId(), newId()];
    await shop.reserve({ reservationId: first, items: [{ productId: a._id, quantity: 2 }] });
    await shop.reserve({ reservationId: second, items: [{ productId: a._id, quantity: 1 }] });
    expect(await shop.stockOf(a._id)).toBe(2);
    expect((await shop.holdsOf(a._id)).map(({ id, quantity }) => ({ id, quantity }))).toEqual([
      { id: first, quantity: 2 },
      { id: second, quantity: 1 },
    ]);
    const one = await shop.call<Record<string, unknown>>('GET', `/api/products/${a._id}`);
    const list = await shop.call<Record<string, unknown>[]>('GET', `/api/products?category=Stock`);
    expect(one.body).not.toHaveProperty('holds');
    for (const listed of list.body) expect(listed).not.toHaveProperty('holds');
    const updated = await shop.call<Record<string, unknown>>('POST', `/api/products/update/${a._id}`, {
      token: shop.adminToken,
      body: { ...a, countInStock: 7, slug: '' },
    });
    expect(updated.status).toBe(200);
    expect(updated.body).not.toHaveProperty('holds');
  });

  it("drops a paid order's holds without giving its stock back, and a later release gives nothing", async () => {
    const a = await shop.productInStock(5);
    const request = { reservationId: newId(), items: [{ productId: a._id, quantity: 3 }] };
    const reply = await shop.reserve(request);
    await orderPaid(request.reservationId, 'Paid');
    await expect.poll(() => shop.holdsOf(a._id), { timeout: 5_000 }).toEqual([]);
    expect(await shop.stockOf(a._id)).toBe(2);
    expect(await shop.release(request.reservationId)).toEqual({
      reservationId: request.reservationId,
      released: false,
    });
    expect(await shop.stockOf(a._id)).toBe(2);
    // A repeat still answers what was reserved, and takes nothing.
    expect(await shop.reserve(request)).toEqual(reply);
    expect(await shop.stockOf(a._id)).toBe(2);
  });

  it('keeps the holds of an order the customer paid (an admin may still delete it) and releases them', async () => {
    const a = await shop.productInStock(5);
    const reservationId = newId();
    await shop.reserve({ reservationId, items: [{ productId: a._id, quantity: 3 }] });
    await orderPaid(reservationId, 'Pending');
    // Something later on the stream shows the consumer got past the customer's payment.
    const marker = await shop.productInStock(1);
    const markerId = newId();
    await shop.reserve({ reservationId: markerId, items: [{ productId: marker._id, quantity: 1 }] });
    await orderPaid(markerId, 'Paid');
    await expect.poll(() => shop.holdsOf(marker._id), { timeout: 5_000 }).toEqual([]);
    expect(await shop.holdsOf(a._id)).toHaveLength(1);
    expect(await shop.release(reservationId)).toEqual({ reservationId, released: true });
    expect(await shop.stockOf(a._id)).toBe(5);
    expect(await shop.holdsOf(a._id)).toEqual([]);
  });
});
