import {
  ORDER_DELETED,
  ORDER_DELIVERED,
  ORDER_PAID,
  PRODUCTS_RELEASE,
  type OrderDeletedEvent,
  type OrderDeliveredEvent,
  type OrderPaidEvent,
} from '@shop/contracts';
import { newEvent } from '@shop/service-kit';
import { refusalOf } from '@shop/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ProductsHarness, newId, startProducts } from './support/products.harness';

// products.release and the holds a reservation leaves on its products: stock given back once, however
// often the release comes (an order not placed, deleted unpaid, or cancelled, paid or not), and never
// once the order was delivered (order.delivered drops its holds).

let shop: ProductsHarness;

beforeAll(async () => {
  shop = await startProducts();
});

afterAll(async () => {
  await shop?.close();
});

async function orderPaid(orderId: string, status: OrderPaidEvent['data']['status']): Promise<void> {
  await shop.publish(
    newEvent(ORDER_PAID, {
      orderId,
      userId: newId(),
      status,
      by: status === 'Paid' ? 'admin' : 'customer',
      paidAt: new Date().toISOString(),
      totalPrice: 10,
    }) satisfies OrderPaidEvent,
  );
}

async function orderDelivered(orderId: string): Promise<void> {
  await shop.publish(
    newEvent(ORDER_DELIVERED, {
      orderId,
      userId: newId(),
      deliveredAt: new Date().toISOString(),
    }) satisfies OrderDeliveredEvent,
  );
}

async function orderDeleted(
  orderId: string,
  fate: Pick<OrderDeletedEvent['data'], 'wasPaid' | 'stockReturned'>,
): Promise<void> {
  await shop.publish(
    newEvent(ORDER_DELETED, { orderId, userId: newId(), items: [], ...fate }) satisfies OrderDeletedEvent,
  );
}

/** A reservation's state as stored. */
async function stateOf(reservationId: string): Promise<string | undefined> {
  const stored = await shop.db
    .collection<{ _id: string; state: string }>('stock_reservations')
    .findOne({ _id: reservationId });
  return stored?.state;
}

/**
 * Waits until both consumers have handled what was published before: a paid and a delivered order of
 * a marker, published after, are seen closed (each consumer handles its events in order).
 */
async function passedOnTheStream(): Promise<void> {
  const marker = await shop.productInStock(1);
  const markerId = newId();
  await shop.reserve({ reservationId: markerId, items: [{ productId: marker._id, quantity: 1 }] });
  await orderPaid(markerId, 'Paid');
  await expect.poll(() => stateOf(markerId), { timeout: 5_000 }).toBe('sold');
  await orderDelivered(markerId);
  await expect.poll(() => stateOf(markerId), { timeout: 5_000 }).toBe('closed');
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

  it("keeps a paid order's holds until its delivery: its cancellation gives the stock back once", async () => {
    const a = await shop.productInStock(5);
    const reservationId = newId();
    await shop.reserve({ reservationId, items: [{ productId: a._id, quantity: 3 }] });
    await orderPaid(reservationId, 'Paid');
    await expect.poll(() => stateOf(reservationId), { timeout: 5_000 }).toBe('sold');
    expect(await shop.holdsOf(a._id)).toHaveLength(1);
    expect(await shop.stockOf(a._id)).toBe(2);
    const replies = await Promise.all([
      shop.release(reservationId),
      shop.release(reservationId),
      shop.release(reservationId),
    ]);
    expect(replies.filter((reply) => reply.released)).toHaveLength(1);
    expect(await shop.stockOf(a._id)).toBe(5);
    expect(await shop.holdsOf(a._id)).toEqual([]);
    // The payment heard again (a redelivery) and a late delivery change nothing: the stock is back.
    await orderPaid(reservationId, 'Paid');
    await orderDelivered(reservationId);
    await passedOnTheStream();
    expect(await stateOf(reservationId)).toBe('released');
    expect(await shop.release(reservationId)).toEqual({ reservationId, released: false });
    expect(await shop.stockOf(a._id)).toBe(5);
  });

  it("drops a delivered order's holds without giving its stock back, and a later release gives nothing", async () => {
    const a = await shop.productInStock(5);
    const request = { reservationId: newId(), items: [{ productId: a._id, quantity: 3 }] };
    const reply = await shop.reserve(request);
    await orderPaid(request.reservationId, 'Paid');
    await orderDelivered(request.reservationId);
    await orderDelivered(request.reservationId);
    await expect.poll(() => shop.holdsOf(a._id), { timeout: 5_000 }).toEqual([]);
    expect(await stateOf(request.reservationId)).toBe('closed');
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

  it('closes an order heard delivered before it was heard paid, and the payment changes nothing', async () => {
    const a = await shop.productInStock(4);
    const reservationId = newId();
    await shop.reserve({ reservationId, items: [{ productId: a._id, quantity: 1 }] });
    await orderDelivered(reservationId);
    await expect.poll(() => stateOf(reservationId), { timeout: 5_000 }).toBe('closed');
    await orderPaid(reservationId, 'Paid');
    await passedOnTheStream();
    expect(await stateOf(reservationId)).toBe('closed');
    expect([await shop.stockOf(a._id), await shop.holdsOf(a._id)]).toEqual([3, []]);
  });

  it("drops the holds of a paid order an admin deleted; an unpaid one's are left to its release", async () => {
    const [paid, unpaid] = [await shop.productInStock(3), await shop.productInStock(3)];
    const [paidId, unpaidId] = [newId(), newId()];
    await shop.reserve({ reservationId: paidId, items: [{ productId: paid._id, quantity: 2 }] });
    await shop.reserve({ reservationId: unpaidId, items: [{ productId: unpaid._id, quantity: 2 }] });
    await orderPaid(paidId, 'Paid');
    await orderDeleted(paidId, { wasPaid: true, stockReturned: false });
    await orderDeleted(unpaidId, { wasPaid: false, stockReturned: true });
    await expect.poll(() => stateOf(paidId), { timeout: 5_000 }).toBe('closed');
    await passedOnTheStream();
    expect([await shop.stockOf(paid._id), await shop.holdsOf(paid._id)]).toEqual([1, []]);
    expect(await stateOf(unpaidId)).toBe('reserved');
    expect(await shop.holdsOf(unpaid._id)).toHaveLength(1);
  });

  it('keeps the holds of an order the customer paid (an admin may still delete it) and releases them', async () => {
    const a = await shop.productInStock(5);
    const reservationId = newId();
    await shop.reserve({ reservationId, items: [{ productId: a._id, quantity: 3 }] });
    await orderPaid(reservationId, 'Pending');
    await passedOnTheStream();
    expect(await stateOf(reservationId)).toBe('reserved');
    expect(await shop.holdsOf(a._id)).toHaveLength(1);
    expect(await shop.release(reservationId)).toEqual({ reservationId, released: true });
    expect(await shop.stockOf(a._id)).toBe(5);
    expect(await shop.holdsOf(a._id)).toEqual([]);
  });
});
