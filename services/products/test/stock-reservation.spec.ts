import { HttpException } from '@nestjs/common';
import {
  PRODUCTS_RELEASE,
  PRODUCTS_RESERVE,
  type Product,
  type ReleaseStockReply,
  type ReserveStockReply,
  type ReserveStockRequest,
} from '@shop/contracts';
import { randomUUID } from 'node:crypto';
import { Types } from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StockReservationsService } from '../src/stock/stock-reservations.service';
import { type ProductsHarness, api, mediaUrl, startProducts } from './support/products.harness';

let shop: ProductsHarness;

const reserve = (request: ReserveStockRequest) => shop.command<ReserveStockReply>(PRODUCTS_RESERVE, request);
const release = (reservationId: string) =>
  shop.command<ReleaseStockReply>(PRODUCTS_RELEASE, { reservationId });
const newId = () => new Types.ObjectId().toHexString();

/** What a refused command turns into for the caller: its status and message. */
async function refusal(work: Promise<unknown>): Promise<{ status: number; message: string }> {
  try {
    await work;
  } catch (error) {
    if (error instanceof HttpException) {
      return { status: error.getStatus(), message: (error.getResponse() as { message: string }).message };
    }
    throw error;
  }
  throw new Error('the command was not refused');
}

async function product(countInStock: number, price = 10): Promise<Product> {
  const answer = await api<Product>(shop, 'POST', '/api/listings/create', {
    token: shop.adminToken,
    body: {
      name: `Stocked ${randomUUID()}`,
      image: [mediaUrl('first'), mediaUrl('second')],
      category: 'Stock',
      brand: 'Acme',
      price,
      countInStock,
      description: 'For reservations.',
    },
  });
  expect(answer.status).toBe(201);
  return answer.body;
}

const stockOf = async (id: string) =>
  (await api<Product>(shop, 'GET', `/api/products/${id}`)).body.countInStock;

beforeAll(async () => {
  shop = await startProducts();
});

afterAll(async () => {
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
    const reservationId = newId();
    expect(
      await refusal(
        reserve({
          reservationId,
          items: [
            { productId: a._id, quantity: 2 },
            { productId: b._id, quantity: 2 },
          ],
        }),
      ),
    ).toEqual({ status: 409, message: 'Sorry. Product is out of stock' });
    expect([await stockOf(a._id), await stockOf(b._id)]).toEqual([5, 1]);
    // The same id answers the same refusal, even once there is stock again.
    expect(
      (
        await refusal(
          reserve({
            reservationId,
            items: [
              { productId: a._id, quantity: 2 },
              { productId: b._id, quantity: 2 },
            ],
          }),
        )
      ).status,
    ).toBe(409);
  });

  it("answers 404 'Product Not Found' for an unknown or deleted product, taking nothing", async () => {
    const a = await product(4);
    const gone = await product(4);
    await api(shop, 'DELETE', `/api/products/delete/${gone._id}`, { token: shop.adminToken });
    for (const missing of [newId(), gone._id]) {
      expect(
        await refusal(
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
    expect(await refusal(reserve({ ...request, items: [{ productId: a._id, quantity: 1 }] }))).toEqual({
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
    const answer = await refusal(shop.command(PRODUCTS_RESERVE, request));
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
});

describe('products.release', () => {
  it('gives the stock back once, however often it is sent', async () => {
    const [a, b] = [await product(6), await product(2)];
    const reservationId = newId();
    await reserve({
      reservationId,
      items: [
        { productId: a._id, quantity: 4 },
        { productId: b._id, quantity: 2 },
      ],
    });
    expect([await stockOf(a._id), await stockOf(b._id)]).toEqual([2, 0]);
    const replies = await Promise.all([
      release(reservationId),
      release(reservationId),
      release(reservationId),
    ]);
    expect(replies.filter((reply) => reply.released)).toHaveLength(1);
    expect(await release(reservationId)).toEqual({ reservationId, released: false });
    expect([await stockOf(a._id), await stockOf(b._id)]).toEqual([6, 2]);
    // A released reservation cannot be taken again under the same id.
    expect(
      await refusal(
        reserve({
          reservationId,
          items: [
            { productId: a._id, quantity: 4 },
            { productId: b._id, quantity: 2 },
          ],
        }),
      ),
    ).toEqual({
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
      (await refusal(reserve({ reservationId, items: [{ productId: a._id, quantity: 1 }] }))).status,
    ).toBe(409);
    expect(await stockOf(a._id)).toBe(3);
  });

  it('answers released: false for a refused reservation, giving nothing back twice', async () => {
    const a = await product(1);
    const reservationId = newId();
    await refusal(reserve({ reservationId, items: [{ productId: a._id, quantity: 2 }] }));
    expect(await release(reservationId)).toEqual({ reservationId, released: false });
    expect(await stockOf(a._id)).toBe(1);
  });

  it('refuses a malformed release (400)', async () => {
    expect((await refusal(shop.command(PRODUCTS_RELEASE, { reservationId: { $ne: null } }))).status).toBe(
      400,
    );
  });
});

describe('crash recovery', () => {
  const reservations = () => shop.db.collection<Record<string, unknown>>('stock_reservations');
  const longAgo = () => new Date(Date.now() - 10 * 60_000);
  const recover = () => shop.app.get(StockReservationsService).recover();

  it('gives back what a reserve interrupted after taking stock held, and fails it', async () => {
    const [a, b] = [await product(5), await product(5)];
    const reservationId = newId();
    // A crash after the first line was taken and recorded, the second taken but not yet recorded
    // (those units stay out of sale: never sold twice).
    await shop.db
      .collection('products')
      .updateOne({ _id: new Types.ObjectId(a._id) }, { $inc: { countInStock: -2 } });
    await reservations().insertOne({
      _id: reservationId as never,
      state: 'pending',
      items: [
        { productId: a._id, quantity: 2 },
        { productId: b._id, quantity: 1 },
      ],
      taken: [{ productId: a._id, quantity: 2 }],
      returned: [],
      releaseRequested: false,
      createdAt: longAgo(),
      updatedAt: longAgo(),
    });
    expect(await recover()).toBeGreaterThanOrEqual(1);
    expect(await stockOf(a._id)).toBe(5);
    expect(await reservations().findOne({ _id: reservationId as never })).toMatchObject({ state: 'failed' });
    expect(await recover()).toBe(0);
    expect(await stockOf(a._id)).toBe(5);
    const repeat = await refusal(
      reserve({
        reservationId,
        items: [
          { productId: a._id, quantity: 2 },
          { productId: b._id, quantity: 1 },
        ],
      }),
    );
    expect(repeat.status).toBe(503);
  });

  it('finishes a release interrupted half-way, giving back only the lines not yet returned', async () => {
    const [a, b] = [await product(4), await product(4)];
    const reservationId = newId();
    await reserve({
      reservationId,
      items: [
        { productId: a._id, quantity: 1 },
        { productId: b._id, quantity: 3 },
      ],
    });
    // The crash: line a was marked returned and given back, line b not yet.
    await shop.db
      .collection('products')
      .updateOne({ _id: new Types.ObjectId(a._id) }, { $inc: { countInStock: 1 } });
    await reservations().updateOne(
      { _id: reservationId as never },
      { $set: { state: 'releasing', returned: [a._id], updatedAt: longAgo() } },
    );
    expect(await recover()).toBeGreaterThanOrEqual(1);
    expect([await stockOf(a._id), await stockOf(b._id)]).toEqual([4, 4]);
    expect(await release(reservationId)).toEqual({ reservationId, released: false });
    expect([await stockOf(a._id), await stockOf(b._id)]).toEqual([4, 4]);
  });

  it('a release of a pending reservation is honoured by whoever finishes it', async () => {
    const a = await product(3);
    const reservationId = newId();
    await shop.db
      .collection('products')
      .updateOne({ _id: new Types.ObjectId(a._id) }, { $inc: { countInStock: -1 } });
    await reservations().insertOne({
      _id: reservationId as never,
      state: 'pending',
      items: [{ productId: a._id, quantity: 1 }],
      taken: [{ productId: a._id, quantity: 1 }],
      returned: [],
      releaseRequested: false,
      createdAt: new Date(),
      updatedAt: new Date(),
    });
    expect(await release(reservationId)).toEqual({ reservationId, released: true });
    expect(await recover()).toBe(0);
    await reservations().updateOne({ _id: reservationId as never }, { $set: { updatedAt: longAgo() } });
    expect(await recover()).toBe(1);
    expect(await stockOf(a._id)).toBe(3);
    expect(await reservations().findOne({ _id: reservationId as never })).toMatchObject({
      state: 'released',
    });
  });

  it('leaves fresh work in progress alone, and a repeat of it is asked to try again', async () => {
    const reservationId = newId();
    const items = [{ productId: newId(), quantity: 1 }];
    await reservations().insertOne({
      _id: reservationId as never,
      state: 'pending',
      items,
      taken: [],
      returned: [],
      releaseRequested: false,
      createdAt: new Date(),
      updatedAt: new Date(),
    });
    expect(await recover()).toBe(0);
    expect(await reservations().findOne({ _id: reservationId as never })).toMatchObject({ state: 'pending' });
    expect((await refusal(reserve({ reservationId, items }))).status).toBe(503);
  });
});
