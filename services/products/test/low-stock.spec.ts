import {
  LOW_STOCK_THRESHOLD_UPDATED,
  PRODUCT_LOW_STOCK,
  type Product,
  type ProductLowStockEvent,
} from '@shop/contracts';
import { newEvent } from '@shop/service-kit';
import { until } from '@shop/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LowStockMonitor } from '../src/low-stock/low-stock.monitor';
import { type ProductsHarness, newId, startProducts } from './support/products.harness';

// A product is low on stock at its threshold or below (its own, or the site's default, 5 until data says
// otherwise): the flag the admin list filters on, and product.low-stock once per crossing.

let shop: ProductsHarness;

beforeAll(async () => {
  shop = await startProducts({}, { events: [PRODUCT_LOW_STOCK] });
});

afterAll(async () => {
  await shop?.close();
});

const read = async (id: string) => (await shop.call<Product>('GET', `/api/products/${id}`)).body;
/** Once every check the writes so far asked for is done. */
const settled = () => shop.app.get(LowStockMonitor).settled();
const alertsOf = (productId: string) =>
  shop.events
    .filter((event) => event.type === PRODUCT_LOW_STOCK)
    .map((event) => (event as ProductLowStockEvent).data)
    .filter((data) => data.productId === productId);
const take = async (productId: string, quantity: number) => {
  const reservationId = newId();
  await shop.reserve({ reservationId, items: [{ productId, quantity }] });
  return reservationId;
};

describe('low stock', () => {
  it('flags a product when its stock falls to the threshold, and says so once per crossing', async () => {
    const product = await shop.productInStock(8);
    const plenty = await shop.productInStock(20);
    await settled();
    expect(await read(product._id)).toMatchObject({ lowStock: false, lowStockThreshold: null });
    // The filtered list as it is now, kept by the catalogue's cache: a crossing must change it.
    const lowOnes = async () =>
      (await shop.call<Product[]>('GET', '/api/products?lowStock=true')).body.map((each) => each._id);
    expect(await lowOnes()).not.toContain(product._id);

    const first = await take(product._id, 3);
    await until(async () => (await read(product._id)).lowStock);
    await until(() => alertsOf(product._id).length === 1);
    expect(alertsOf(product._id)).toEqual([
      { productId: product._id, name: product.name, countInStock: 5, threshold: 5 },
    ]);

    // Lower still: the same crossing, no second word.
    await take(product._id, 1);
    await settled();
    expect(await shop.stockOf(product._id)).toBe(4);

    // Back above it, then down again: a second crossing.
    await shop.release(first);
    await until(async () => !(await read(product._id)).lowStock);
    await take(product._id, 2);
    await until(() => alertsOf(product._id).length >= 2);
    await settled();
    // In the order they were written: a word for the check at 4 would be here before the second crossing's.
    expect(alertsOf(product._id).map((alert) => alert.countInStock)).toEqual([5, 5]);

    expect(await lowOnes()).toContain(product._id);
    expect(await lowOnes()).not.toContain(plenty._id);
    const low = await shop.call<Product[]>('GET', '/api/products?lowStock=true');
    expect(low.body.every((each) => each.lowStock)).toBe(true);
    expect(alertsOf(plenty._id)).toEqual([]);
  });

  it("uses a product's own threshold, set and cleared by the admin", async () => {
    const product = await shop.createProduct({ countInStock: 10, lowStockThreshold: 12 });
    expect(product.lowStockThreshold).toBe(12);
    await until(async () => (await read(product._id)).lowStock);
    await until(() => alertsOf(product._id).length === 1);
    expect(alertsOf(product._id)[0]).toMatchObject({ countInStock: 10, threshold: 12 });

    const { _id: id, rating: _r, numReviews: _n, lowStock: _l, ...input } = await read(product._id);
    const cleared = await shop.call<Product>('POST', `/api/products/update/${id}`, {
      token: shop.adminToken,
      body: { ...input, lowStockThreshold: null },
    });
    expect(cleared).toMatchObject({ status: 200, body: { lowStockThreshold: null } });
    await until(async () => !(await read(product._id)).lowStock);

    // An edit that does not send it (a client of an earlier release) keeps it.
    await shop.call('POST', `/api/products/update/${id}`, {
      token: shop.adminToken,
      body: { ...input, lowStockThreshold: 11 },
    });
    const { lowStockThreshold: _t, ...withoutThreshold } = input;
    const kept = await shop.call<Product>('POST', `/api/products/update/${id}`, {
      token: shop.adminToken,
      body: { ...withoutThreshold, description: 'Edited without a threshold' },
    });
    expect(kept.body).toMatchObject({ lowStockThreshold: 11 });

    for (const bad of [-1, 1.5, '3']) {
      const refused = await shop.call<{ message: string }>('POST', `/api/products/update/${id}`, {
        token: shop.adminToken,
        body: { ...input, lowStockThreshold: bad },
      });
      expect(refused.status, String(bad)).toBe(400);
      expect(refused.body.message).toMatch(/lowStockThreshold/);
    }
    expect((await shop.call('GET', '/api/products?lowStock=maybe')).status).toBe(400);
  });

  it("follows the site's default from data's event", async () => {
    const product = await shop.productInStock(9);
    await settled();
    expect((await read(product._id)).lowStock).toBe(false);
    await shop.publish(newEvent(LOW_STOCK_THRESHOLD_UPDATED, { settingsId: newId(), lowStockThreshold: 9 }));
    await until(async () => (await read(product._id)).lowStock);
    await until(() => alertsOf(product._id).length === 1);
    expect(alertsOf(product._id)[0]).toMatchObject({ countInStock: 9, threshold: 9 });
  });
});
