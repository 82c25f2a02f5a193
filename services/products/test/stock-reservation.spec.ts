import type { HttpException } from '@nestjs/common';
import { getModelToken } from '@nestjs/mongoose';
import {
  ORDER_PAID,
  PRODUCTS_RELEASE,
  PRODUCTS_RESERVE,
  type OrderPaidEvent,
  type ReleaseStockReply,
  type ReserveStockReply,
  type ReserveStockRequest,
  type StockRequestItem,
} from '@shop/contracts';
import { JetStreamEvents, newEvent } from '@shop/service-kit';
import { refusalOf } from '@shop/service-kit/testing';
import { type Model, Types } from 'mongoose';
import { type NatsConnection, connect } from 'nats';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { PRODUCT_MODEL, type ProductHold, type ProductRecord } from '../src/products/product.schema';
import { type ProductWrite, giveBackStock, takeStock } from '../src/stock/stock-holds';
import { StockRecoveryService } from '../src/stock/stock-recovery.service';
import {
  type ProductsHarness,
  api,
  createProduct,
  mediaUrl,
  shownStock,
  startProducts,
} from './support/products.harness';

let shop: ProductsHarness;
let nats: NatsConnection;

const reserve = (request: ReserveStockRequest) => shop.command<ReserveStockReply>(PRODUCTS_RESERVE, request);
const release = (reservationId: string) =>
  shop.command<ReleaseStockReply>(PRODUCTS_RELEASE, { reservationId });
const newId = () => new Types.ObjectId().toHexString();

const product = (countInStock: number, price = 10) =>
  createProduct(shop, {
    countInStock,
    price,
    category: 'Stock',
    image: [mediaUrl('first'), mediaUrl('second')],
  });

const stockOf = (id: string) => shownStock(shop, id);

/** The holds on a product, as stored (the API never shows them). */
async function holdsOf(id: string): Promise<ProductHold[]> {
  const doc = await shop.db
    .collection<{ holds?: ProductHold[] }>('products')
    .findOne({ _id: new Types.ObjectId(id) as never }, { projection: { holds: 1 } });
  return doc?.holds ?? [];
}

/** Performs one of the service's own product writes alone, as if the process died right after it. */
async function productWriteAlone({ filter, update }: ProductWrite): Promise<void> {
  const products = shop.app.get<Model<ProductRecord>>(getModelToken(PRODUCT_MODEL));
  const result = await products.updateOne(filter, update, { timestamps: false });
  expect(result.modifiedCount).toBe(1);
}

const takeAlone = (reservationId: string, line: StockRequestItem) =>
  productWriteAlone(takeStock(reservationId, line, new Date()));
const giveBackAlone = (reservationId: string, line: StockRequestItem) =>
  productWriteAlone(giveBackStock(reservationId, line));

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

beforeAll(async () => {
  shop = await startProducts();
  nats = await connect({ servers: inject('natsUrl') });
});

afterAll(async () => {
  await nats?.close();
  await shop?.close();
});

describe('products.reserve', () => {
  it('takes every line and answers the authoritative name, price and first image', async () => {
    const [a, b] = [await product(5, 19.99), await product(3, 7.5)];
    const reservationId = newId();
    const reply = await reserve({
      reservationId,
      items: [
        { productId: a._id, quantity: 2 },
        { productId: b._id, quantity: 3 },
      ],
    });
    expect(reply).toEqual({
      reservationId,
      items: [
        { productId: a._id, name: a.name, price: 19.99, image: a.image[0], quantity: 2 },
        { productId: b._id, name: b.name, price: 7.5, image: b.image[0], quantity: 3 },
      ],
    });
    expect([await stockOf(a._id), await stockOf(b._id)]).toEqual([3, 0]);
  });

  it('takes nothing when one line is short: 409, and the other lines are given back', async () => {
    const [a, b] = [await product(5), await product(1)];
    const request = {
      reservationId: newId(),
      items: [
        { productId: a._id, quantity: 2 },
        { productId: b._id, quantity: 2 },
      ],
    };
    expect(await refusalOf(reserve(request))).toEqual({
      status: 409,
      message: 'Sorry. Product is out of stock',
    });
    expect([await stockOf(a._id), await stockOf(b._id)]).toEqual([5, 1]);
    // The same id answers the same refusal, even once there is stock again.
    expect((await refusalOf(reserve(request))).status).toBe(409);
  });

  it("answers 404 'Product Not Found' for an unknown or deleted product, taking nothing", async () => {
    const a = await product(4);
    const gone = await product(4);
    await api(shop, 'DELETE', `/api/products/delete/${gone._id}`, { token: shop.adminToken });
    for (const missing of [newId(), gone._id]) {
      expect(
        await refusalOf(
          reserve({
            reservationId: newId(),
            items: [
              { productId: a._id, quantity: 1 },
              { productId: missing, quantity: 1 },
            ],
          }),
        ),
      ).toEqual({ status: 404, message: 'Product Not Found' });
    }
    expect(await stockOf(a._id)).toBe(4);
  });

  it('answers a repeated reserve with the first result and takes nothing more', async () => {
    const a = await product(10, 12);
    const request = { reservationId: newId(), items: [{ productId: a._id, quantity: 4 }] };
    const first = await reserve(request);
    // The admin changes the price: the repeat still answers what was reserved.
    await api(shop, 'POST', `/api/products/update/${a._id}`, {
      token: shop.adminToken,
      body: { ...a, price: 99, countInStock: 6, slug: '' },
    });
    expect(await reserve(request)).toEqual(first);
    expect(await stockOf(a._id)).toBe(6);
    expect(await refusalOf(reserve({ ...request, items: [{ productId: a._id, quantity: 1 }] }))).toEqual({
      status: 409,
      message: 'This reservation id was used for other items',
    });
  });

  it.each([
    ['no items', { reservationId: 'r-1', items: [] }],
    [
      'a zero quantity',
      { reservationId: 'r-2', items: [{ productId: '0123456789abcdef01234567', quantity: 0 }] },
    ],
    [
      'a fractional quantity',
      { reservationId: 'r-3', items: [{ productId: '0123456789abcdef01234567', quantity: 1.5 }] },
    ],
    ['a malformed product id', { reservationId: 'r-4', items: [{ productId: 'nope', quantity: 1 }] }],
    [
      'an operator for the product id',
      { reservationId: 'r-5', items: [{ productId: { $ne: null }, quantity: 1 }] },
    ],
    ['no reservation id', { items: [{ productId: '0123456789abcdef01234567', quantity: 1 }] }],
    [
      'an operator for the reservation id',
      { reservationId: { $gt: '' }, items: [{ productId: '0123456789abcdef01234567', quantity: 1 }] },
    ],
    [
      'a product twice',
      {
        reservationId: 'r-6',
        items: [
          { productId: '0123456789abcdef01234567', quantity: 1 },
          { productId: '0123456789abcdef01234567', quantity: 2 },
        ],
      },
    ],
    ['no object at all', 'reserve everything'],
  ])('refuses a request with %s (400)', async (_case, request) => {
    const answer = await refusalOf(shop.command(PRODUCTS_RESERVE, request));
    expect(answer.status).toBe(400);
    expect(answer.message).toEqual(expect.any(String));
  });

  it('lets exactly one of two reservations racing for the last unit win', async () => {
    const a = await product(1);
    const results = await Promise.allSettled(
      [newId(), newId()].map((reservationId) =>
        reserve({ reservationId, items: [{ productId: a._id, quantity: 1 }] }),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const lost = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect((lost.reason as HttpException).getStatus()).toBe(409);
    expect(await stockOf(a._id)).toBe(0);
  });

  it('lets exactly 10 of 50 concurrent reservations win a stock of 10, never below zero', async () => {
    const a = await product(10);
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, () =>
        reserve({ reservationId: newId(), items: [{ productId: a._id, quantity: 1 }] }),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(10);
    for (const result of results.filter((r) => r.status === 'rejected')) {
      expect(((result as PromiseRejectedResult).reason as HttpException).getStatus()).toBe(409);
    }
    expect(await stockOf(a._id)).toBe(0);
  });

  it('never oversells when concurrent multi-line reserves are taken together, all or nothing each', async () => {
    // Concurrent reserves go out in shared bulk writes; each line is still its own conditional take.
    const [a, b, c] = [await product(7), await product(5), await product(40)];
    const requests: ReserveStockRequest[] = Array.from({ length: 30 }, (_, i) => ({
      reservationId: newId(),
      items: [
        { productId: a._id, quantity: 1 + (i % 2) },
        ...(i % 3 === 0 ? [{ productId: b._id, quantity: 1 }] : []),
        { productId: c._id, quantity: 1 },
      ],
    }));
    // One reservation id sent twice in the same burst: one reserve, taken once.
    const burst = [...requests, requests[0]!];
    const results = await Promise.allSettled(burst.map((request) => reserve(request)));

    const won = requests.filter((_, i) => results[i]!.status === 'fulfilled');
    const lost = results.filter((r) => r.status === 'rejected') as PromiseRejectedResult[];
    for (const { reason } of lost) expect([409, 503]).toContain((reason as HttpException).getStatus());
    const takenOf = (id: string) =>
      won.reduce((sum, r) => sum + (r.items.find((line) => line.productId === id)?.quantity ?? 0), 0);
    for (const [p, stock] of [
      [a, 7],
      [b, 5],
      [c, 40],
    ] as const) {
      expect(takenOf(p._id)).toBeLessThanOrEqual(stock);
      expect(await stockOf(p._id)).toBe(stock - takenOf(p._id));
      // Exactly the winners hold stock, each line once.
      const holds = await holdsOf(p._id);
      expect(holds.map((hold) => hold.id).sort()).toEqual(
        won
          .filter((r) => r.items.some((line) => line.productId === p._id))
          .map((r) => r.reservationId)
          .sort(),
      );
    }
    expect(won.length).toBeGreaterThan(0);
    for (const [i, result] of results.entries()) {
      if (result.status !== 'fulfilled') continue;
      expect(result.value.items.map((line) => [line.productId, line.quantity])).toEqual(
        burst[i]!.items.map((line) => [line.productId, line.quantity]),
      );
    }
  });
});

describe('products.release', () => {
  it('gives the stock back once, however often it is sent', async () => {
    const [a, b] = [await product(6), await product(2)];
    const reservationId = newId();
    const request = {
      reservationId,
      items: [
        { productId: a._id, quantity: 4 },
        { productId: b._id, quantity: 2 },
      ],
    };
    await reserve(request);
    expect([await stockOf(a._id), await stockOf(b._id)]).toEqual([2, 0]);
    expect(await holdsOf(a._id)).toEqual([{ id: reservationId, quantity: 4, at: expect.any(Date) }]);
    const replies = await Promise.all([
      release(reservationId),
      release(reservationId),
      release(reservationId),
    ]);
    expect(replies.filter((reply) => reply.released)).toHaveLength(1);
    expect(await release(reservationId)).toEqual({ reservationId, released: false });
    expect([await stockOf(a._id), await stockOf(b._id)]).toEqual([6, 2]);
    expect([await holdsOf(a._id), await holdsOf(b._id)]).toEqual([[], []]);
    // A released reservation cannot be taken again under the same id.
    expect(await refusalOf(reserve(request))).toEqual({
      status: 409,
      message: 'This reservation was released',
    });
    expect(await stockOf(a._id)).toBe(6);
  });

  it('remembers a release that overtook its reserve, so the late reserve takes nothing', async () => {
    const a = await product(3);
    const reservationId = newId();
    expect(await release(reservationId)).toEqual({ reservationId, released: false });
    expect(
      (await refusalOf(reserve({ reservationId, items: [{ productId: a._id, quantity: 1 }] }))).status,
    ).toBe(409);
    expect(await stockOf(a._id)).toBe(3);
  });

  it('answers released: false for a refused reservation, giving nothing back twice', async () => {
    const a = await product(1);
    const reservationId = newId();
    await refusalOf(reserve({ reservationId, items: [{ productId: a._id, quantity: 2 }] }));
    expect(await release(reservationId)).toEqual({ reservationId, released: false });
    expect(await stockOf(a._id)).toBe(1);
  });

  it('refuses a malformed release (400)', async () => {
    expect((await refusalOf(shop.command(PRODUCTS_RELEASE, { reservationId: { $ne: null } }))).status).toBe(
      400,
    );
  });
});

describe('holds on products', () => {
  it('records each line on its product in the same write, and never shows it through the API', async () => {
    const a = await product(5);
    const [first, second] = [newId(), newId()];
    await reserve({ reservationId: first, items: [{ productId: a._id, quantity: 2 }] });
    await reserve({ reservationId: second, items: [{ productId: a._id, quantity: 1 }] });
    expect(await stockOf(a._id)).toBe(2);
    expect((await holdsOf(a._id)).map(({ id, quantity }) => ({ id, quantity }))).toEqual([
      { id: first, quantity: 2 },
      { id: second, quantity: 1 },
    ]);
    const one = await api<Record<string, unknown>>(shop, 'GET', `/api/products/${a._id}`);
    const list = await api<Record<string, unknown>[]>(shop, 'GET', `/api/products?category=Stock`);
    expect(one.body).not.toHaveProperty('holds');
    for (const listed of list.body) expect(listed).not.toHaveProperty('holds');
    const updated = await api<Record<string, unknown>>(shop, 'POST', `/api/products/update/${a._id}`, {
      token: shop.adminToken,
      body: { ...a, countInStock: 7, slug: '' },
    });
    expect(updated.status).toBe(200);
    expect(updated.body).not.toHaveProperty('holds');
  });

  it("drops a paid order's holds without giving its stock back, and a later release gives nothing", async () => {
    const a = await product(5);
    const request = { reservationId: newId(), items: [{ productId: a._id, quantity: 3 }] };
    const reply = await reserve(request);
    await orderPaid(request.reservationId, 'Paid');
    await expect.poll(() => holdsOf(a._id), { timeout: 5_000 }).toEqual([]);
    expect(await stockOf(a._id)).toBe(2);
    expect(await release(request.reservationId)).toEqual({
      reservationId: request.reservationId,
      released: false,
    });
    expect(await stockOf(a._id)).toBe(2);
    // A repeat still answers what was reserved, and takes nothing.
    expect(await reserve(request)).toEqual(reply);
    expect(await stockOf(a._id)).toBe(2);
  });

  it('keeps the holds of an order the customer paid (an admin may still delete it) and releases them', async () => {
    const a = await product(5);
    const reservationId = newId();
    await reserve({ reservationId, items: [{ productId: a._id, quantity: 3 }] });
    await orderPaid(reservationId, 'Pending');
    // Something later on the stream shows the consumer got past the customer's payment.
    const marker = await product(1);
    const markerId = newId();
    await reserve({ reservationId: markerId, items: [{ productId: marker._id, quantity: 1 }] });
    await orderPaid(markerId, 'Paid');
    await expect.poll(() => holdsOf(marker._id), { timeout: 5_000 }).toEqual([]);
    expect(await holdsOf(a._id)).toHaveLength(1);
    expect(await release(reservationId)).toEqual({ reservationId, released: true });
    expect(await stockOf(a._id)).toBe(5);
    expect(await holdsOf(a._id)).toEqual([]);
  });
});

describe('crash recovery', () => {
  const reservations = () => shop.db.collection<Record<string, unknown>>('stock_reservations');
  const longAgo = () => new Date(Date.now() - 10 * 60_000);
  const recover = () => shop.app.get(StockRecoveryService).recover();
  const reservationState = async (id: string) =>
    (await reservations().findOne({ _id: id as never }))?.['state'];
  /** Stores a reservation as a crashed or stalled process left it. */
  const storeReservation = (
    reservationId: string,
    fields: { state: string; items: unknown[]; taken?: unknown[]; at?: Date } & Record<string, unknown>,
  ) => {
    const { at = longAgo(), taken = [], ...rest } = fields;
    return reservations().insertOne({
      _id: reservationId as never,
      taken,
      holdsOnProducts: true,
      releaseRequested: false,
      ...rest,
      createdAt: at,
      updatedAt: at,
    });
  };

  it('loses no unit when a reserve dies between taking stock and recording it', async () => {
    const [a, b] = [await product(5), await product(5)];
    const reservationId = newId();
    const items = [
      { productId: a._id, quantity: 2 },
      { productId: b._id, quantity: 1 },
    ];
    // Line a was taken and recorded; line b was taken on its product, and then the process died.
    await takeAlone(reservationId, items[0]!);
    await takeAlone(reservationId, items[1]!);
    await storeReservation(reservationId, { state: 'pending', items, taken: [items[0]] });
    expect([await stockOf(a._id), await stockOf(b._id)]).toEqual([3, 4]);
    expect(await recover()).toBe(1);
    expect([await stockOf(a._id), await stockOf(b._id)]).toEqual([5, 5]);
    expect([await holdsOf(a._id), await holdsOf(b._id)]).toEqual([[], []]);
    expect(await reservationState(reservationId)).toBe('failed');
    expect(await recover()).toBe(0);
    expect([await stockOf(a._id), await stockOf(b._id)]).toEqual([5, 5]);
    const repeat = await refusalOf(reserve({ reservationId, items }));
    expect(repeat.status).toBe(503);
    expect([await stockOf(a._id), await stockOf(b._id)]).toEqual([5, 5]);
  });

  it('finishes a release interrupted half-way, giving back only the lines not yet returned', async () => {
    const [a, b] = [await product(4), await product(4)];
    const reservationId = newId();
    const items = [
      { productId: a._id, quantity: 1 },
      { productId: b._id, quantity: 3 },
    ];
    await reserve({ reservationId, items });
    // The crash: line a was given back (its hold went with it), line b not yet.
    await reservations().updateOne(
      { _id: reservationId as never },
      { $set: { state: 'releasing', updatedAt: longAgo() } },
    );
    await giveBackAlone(reservationId, items[0]!);
    expect([await stockOf(a._id), await stockOf(b._id)]).toEqual([4, 1]);
    expect(await recover()).toBe(1);
    expect([await stockOf(a._id), await stockOf(b._id)]).toEqual([4, 4]);
    expect(await reservationState(reservationId)).toBe('released');
    expect(await release(reservationId)).toEqual({ reservationId, released: false });
    expect([await stockOf(a._id), await stockOf(b._id)]).toEqual([4, 4]);
  });

  it('gives back once when a finished release is run again (a crash before its last state write)', async () => {
    const a = await product(4);
    const reservationId = newId();
    await reserve({ reservationId, items: [{ productId: a._id, quantity: 3 }] });
    expect(await release(reservationId)).toEqual({ reservationId, released: true });
    expect(await stockOf(a._id)).toBe(4);
    await reservations().updateOne(
      { _id: reservationId as never },
      { $set: { state: 'releasing', updatedAt: longAgo() } },
    );
    expect(await recover()).toBe(1);
    expect(await stockOf(a._id)).toBe(4);
    expect(await reservationState(reservationId)).toBe('released');
  });

  it('a release of a pending reservation is honoured by whoever finishes it', async () => {
    const a = await product(3);
    const reservationId = newId();
    const items = [{ productId: a._id, quantity: 1 }];
    await takeAlone(reservationId, items[0]!);
    await storeReservation(reservationId, { state: 'pending', items, taken: items, at: new Date() });
    expect(await release(reservationId)).toEqual({ reservationId, released: true });
    expect(await recover()).toBe(0);
    await reservations().updateOne({ _id: reservationId as never }, { $set: { updatedAt: longAgo() } });
    expect(await recover()).toBe(1);
    expect(await stockOf(a._id)).toBe(3);
    expect(await holdsOf(a._id)).toEqual([]);
    expect(await reservationState(reservationId)).toBe('released');
  });

  it('gives back a unit that a reserve stalled past its take-over took and then died holding', async () => {
    const a = await product(3);
    const reservationId = newId();
    const items = [{ productId: a._id, quantity: 2 }];
    await storeReservation(reservationId, { state: 'pending', items });
    // The recovery fails it while its reserve is stalled; the reserve then takes its line and dies.
    expect(await recover()).toBe(1);
    expect(await reservationState(reservationId)).toBe('failed');
    await takeAlone(reservationId, items[0]!);
    expect(await stockOf(a._id)).toBe(1);
    expect(await recover()).toBe(1);
    expect(await stockOf(a._id)).toBe(3);
    expect(await holdsOf(a._id)).toEqual([]);
    expect(await recover()).toBe(0);
    expect(await stockOf(a._id)).toBe(3);
  });

  it('drops the holds a sold reservation left behind, without changing the stock', async () => {
    const a = await product(3);
    const reservationId = newId();
    await reserve({ reservationId, items: [{ productId: a._id, quantity: 2 }] });
    // The crash: the reservation was marked sold, its holds not yet dropped.
    await reservations().updateOne({ _id: reservationId as never }, { $set: { state: 'sold' } });
    expect(await recover()).toBe(1);
    expect(await holdsOf(a._id)).toEqual([]);
    expect(await stockOf(a._id)).toBe(1);
    expect(await release(reservationId)).toEqual({ reservationId, released: false });
    expect(await stockOf(a._id)).toBe(1);
  });

  it('leaves fresh work in progress alone, and a repeat of it is asked to try again', async () => {
    const reservationId = newId();
    const items = [{ productId: newId(), quantity: 1 }];
    await storeReservation(reservationId, { state: 'pending', items, at: new Date() });
    expect(await recover()).toBe(0);
    expect(await reservationState(reservationId)).toBe('pending');
    expect((await refusalOf(reserve({ reservationId, items }))).status).toBe(503);
  });
});
