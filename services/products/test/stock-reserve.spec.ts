import type { HttpException } from '@nestjs/common';
import { PRODUCTS_RESERVE, type ReserveStockRequest } from '@shop/contracts';
import { refusalOf } from '@shop/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ProductsHarness, newId, startProducts } from './support/products.harness';

// products.reserve, the command the orders service sends at checkout: every line taken or none, once
// per reservation id, and never below zero however many checkouts race for the last units.

let shop: ProductsHarness;

beforeAll(async () => {
  shop = await startProducts();
});

afterAll(async () => {
  await shop?.close();
});

describe('products.reserve', () => {
  it('takes every line and answers the authoritative name, price and first image', async () => {
    const [a, b] = [await shop.productInStock(5, 19.99), await shop.productInStock(3, 7.5)];
    const reservationId = newId();
    const reply = await shop.reserve({
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
    expect([await shop.stockOf(a._id), await shop.stockOf(b._id)]).toEqual([3, 0]);
  });

  it('takes nothing when one line is short: 409, and the other lines are given back', async () => {
    const [a, b] = [await shop.productInStock(5), await shop.productInStock(1)];
    const request = {
      reservationId: newId(),
      items: [
        { productId: a._id, quantity: 2 },
        { productId: b._id, quantity: 2 },
      ],
    };
    expect(await refusalOf(shop.reserve(request))).toEqual({
      status: 409,
      message: 'Sorry. Product is out of stock',
    });
    expect([await shop.stockOf(a._id), await shop.stockOf(b._id)]).toEqual([5, 1]);
    // The same id answers the same refusal, even once there is stock again.
    expect((await refusalOf(shop.reserve(request))).status).toBe(409);
  });

  it("answers 404 'Product Not Found' for an unknown or deleted product, taking nothing", async () => {
    const a = await shop.productInStock(4);
    const gone = await shop.productInStock(4);
    await shop.call('DELETE', `/api/products/delete/${gone._id}`, { token: shop.adminToken });
    for (const missing of [newId(), gone._id]) {
      expect(
        await refusalOf(
          shop.reserve({
            reservationId: newId(),
            items: [
              { productId: a._id, quantity: 1 },
              { productId: missing, quantity: 1 },
            ],
          }),
        ),
      ).toEqual({ status: 404, message: 'Product Not Found' });
    }
    expect(await shop.stockOf(a._id)).toBe(4);
  });

  it('answers a repeated reserve with the first result and takes nothing more', async () => {
    const a = await shop.productInStock(10, 12);
    const request = { reservationId: newId(), items: [{ productId: a._id, quantity: 4 }] };
    const first = await shop.reserve(request);
    // The admin changes the price: the repeat still answers what was reserved.
    await shop.call('POST', `/api/products/update/${a._id}`, {
      token: shop.adminToken,
      body: { ...a, price: 99, countInStock: 6, slug: '' },
    });
    expect(await shop.reserve(request)).toEqual(first);
    expect(await shop.stockOf(a._id)).toBe(6);
    expect(await refusalOf(shop.reserve({ ...request, items: [{ productId: a._id, quantity: 1 }] }))).toEqual(
      {
        status: 409,
        message: 'This reservation id was used for other items',
      },
    );
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
    const a = await shop.productInStock(1);
    const results = await Promise.allSettled(
      [newId(), newId()].map((reservationId) =>
        shop.reserve({ reservationId, items: [{ productId: a._id, quantity: 1 }] }),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const lost = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect((lost.reason as HttpException).getStatus()).toBe(409);
    expect(await shop.stockOf(a._id)).toBe(0);
  });

  it('lets exactly 10 of 50 concurrent reservations win a stock of 10, never below zero', async () => {
    const a = await shop.productInStock(10);
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, () =>
        shop.reserve({ reservationId: newId(), items: [{ productId: a._id, quantity: 1 }] }),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(10);
    for (const result of results.filter((r) => r.status === 'rejected')) {
      expect(((result as PromiseRejectedResult).reason as HttpException).getStatus()).toBe(409);
    }
    expect(await shop.stockOf(a._id)).toBe(0);
  });

  it('never oversells when concurrent multi-line reserves are taken together, all or nothing each', async () => {
    // Concurrent reserves go out in shared bulk writes; each line is still its own conditional take.
    const [a, b, c] = [
      await shop.productInStock(7),
      await shop.productInStock(5),
      await shop.productInStock(40),
    ];
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
    const results = await Promise.allSettled(burst.map((request) => shop.reserve(request)));

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
      expect(await shop.stockOf(p._id)).toBe(stock - takenOf(p._id));
      // Exactly the winners hold stock, each line once.
      const holds = await shop.holdsOf(p._id);
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
