import { randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { brotliDecompressSync } from 'node:zlib';
import { HttpException } from '@nestjs/common';
import {
  CATALOG_CHANGED,
  type CatalogChangedMessage,
  PRODUCT_UPDATED,
  PRODUCTS_RESERVE,
  type Product,
  type ReserveStockReply,
  type ReserveStockRequest,
  TOTAL_COUNT_HEADER,
} from '@shop/contracts';
import { JetStreamEvents, newEvent } from '@shop/service-kit';
import { mongoUrlFor } from '@shop/testing';
import { Types } from 'mongoose';
import { JSONCodec, connect } from 'nats';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { CatalogCache } from '../src/catalog-cache/catalog-cache';
import { CATALOG_CACHE_CONTROL } from '../src/catalog-cache/catalog-http';
import { type ProductsHarness, mediaUrl, startProducts } from './support/products.harness';

// Two replicas of the service on one database and one NATS, each behind its own gateway.
let one: ProductsHarness;
let two: ProductsHarness;

beforeAll(async () => {
  one = await startProducts();
  two = await startProducts({ MONGO_URL: mongoUrlFor(inject('mongoUrl'), one.db.name) });
});

afterAll(async () => {
  await two?.close();
  await one?.close();
});

// A threshold of 0: these stocks never fall to it, so no low-stock flag is written besides what a test does.
const created = (on: ProductsHarness, countInStock = 5) =>
  on.createProduct({ countInStock, category: 'Cached', lowStockThreshold: 0 });

/** Changes a product behind the service's back: no hook, no event, so only a cache would hide it. */
async function rawSet(id: string, fields: Record<string, unknown>): Promise<void> {
  await one.db.collection('products').updateOne({ _id: new Types.ObjectId(id) }, { $set: fields });
}

const read = (on: ProductsHarness, path: string, headers: Record<string, string> = {}) =>
  fetch(`${on.url}${path}`, { headers });

async function readProduct(on: ProductsHarness, id: string): Promise<Product> {
  return (await on.call<Product>('GET', `/api/products/${id}`)).body;
}

async function reserve(request: ReserveStockRequest): Promise<ReserveStockReply | number> {
  try {
    return await one.command<ReserveStockReply>(PRODUCTS_RESERVE, request);
  } catch (error) {
    if (error instanceof HttpException) return error.getStatus();
    throw error;
  }
}

/**
 * Reserves 2 of a product of stock 5, as an order does; then on each replica, once its answer shows
 * the 3 left (within a second), runs `then`.
 */
async function orderTwoOf(product: Product, then: (on: ProductsHarness) => Promise<void>): Promise<void> {
  const reply = await reserve({
    reservationId: new Types.ObjectId().toHexString(),
    items: [{ productId: product._id, quantity: 2 }],
  });
  expect(reply).toMatchObject({ items: [{ productId: product._id, quantity: 2 }] });
  for (const on of [one, two]) {
    await expect
      .poll(async () => (await readProduct(on, product._id)).countInStock, { timeout: 1_000 })
      .toBe(3);
    await then(on);
  }
}

describe('public catalogue reads from memory', () => {
  it('answers a read again from memory until the product changes through the service', async () => {
    const product = await created(one);
    expect((await readProduct(one, product._id)).name).toBe(product.name);
    await rawSet(product._id, { name: 'Changed behind its back' });
    // The database changed without a write through the service: the cached answer stands.
    expect((await readProduct(one, product._id)).name).toBe(product.name);

    const update = await one.call<Product>('POST', `/api/products/update/${product._id}`, {
      token: one.adminToken,
      body: { ...product, name: `${product.name} v2`, slug: '' },
    });
    expect(update.status).toBe(200);
    expect((await readProduct(one, product._id)).name).toBe(`${product.name} v2`);
  });

  it('answers with an ETag and Cache-Control, and 304 without a body when the client has it', async () => {
    await created(one);
    const first = await read(one, '/api/products?category=Cached&sort=name');
    const etag = first.headers.get('etag');
    expect(first.status).toBe(200);
    expect(etag).toMatch(/^W\/".+"$/);
    expect(first.headers.get('cache-control')).toBe(CATALOG_CACHE_CONTROL);
    const total = first.headers.get(TOTAL_COUNT_HEADER);
    expect(Number(total)).toBeGreaterThan(0);

    const again = await read(one, '/api/products?category=Cached&sort=name', { 'if-none-match': etag! });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    // No length announced for a body that is not sent (clients drop the connection over a mismatch).
    expect(again.headers.get('content-length') ?? '0').toBe('0');
    expect(again.headers.get('etag')).toBe(etag);

    // A change makes the client's copy stale: a full answer with a new validator.
    await created(one);
    const changed = await read(one, '/api/products?category=Cached&sort=name', { 'if-none-match': etag! });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);
    expect(Number(changed.headers.get(TOTAL_COUNT_HEADER))).toBe(Number(total) + 1);
  });

  it('sends the kept bytes compressed once for clients that accept brotli, the same JSON inside', async () => {
    await created(one);
    const plain = await (await read(one, '/api/products?pageSize=50')).text();
    expect(plain.length).toBeGreaterThan(1024);
    // Node's fetch would decompress on its own; a raw request shows what is on the wire.
    const body = await new Promise<{ encoding?: string; bytes: Buffer }>((resolve, reject) => {
      const req = request(`${one.url}/api/products?pageSize=50`, { headers: { 'accept-encoding': 'br' } });
      req.on('response', (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ encoding: response.headers['content-encoding'], bytes: Buffer.concat(chunks) }),
        );
      });
      req.on('error', reject);
      req.end();
    });
    expect(body.encoding).toBe('br');
    expect(brotliDecompressSync(body.bytes).toString()).toBe(plain);
  });

  it('caches no error: a missing product answers 404 until it exists', async () => {
    const slug = `later-${randomUUID()}`;
    expect((await one.call('GET', `/api/products/slug/${slug}`)).status).toBe(404);
    const product = await one.call<Product>('POST', '/api/listings/create', {
      token: one.adminToken,
      body: {
        name: 'Later',
        slug,
        image: [mediaUrl()],
        category: 'Cached',
        brand: 'Acme',
        price: 1,
        countInStock: 1,
        description: 'x',
      },
    });
    expect(product.status).toBe(201);
    expect((await one.call('GET', `/api/products/slug/${slug}`)).status).toBe(200);
  });
});

describe('every replica drops what changed', () => {
  it("shows an admin's change made through one replica on the other within a second", async () => {
    const product = await created(one);
    const categories = (await two.call<string[]>('GET', '/api/products/categories')).body;
    expect((await readProduct(two, product._id)).price).toBe(10);
    expect((await two.call<Product>('GET', `/api/products/slug/${product.slug}`)).body.price).toBe(10);

    const update = await one.call<Product>('POST', `/api/products/update/${product._id}`, {
      token: one.adminToken,
      body: { ...product, price: 12.5, category: `Moved ${randomUUID()}`, slug: '' },
    });
    expect(update.status).toBe(200);
    await expect.poll(async () => (await readProduct(two, product._id)).price, { timeout: 1_000 }).toBe(12.5);
    expect((await two.call<Product>('GET', `/api/products/slug/${product.slug}`)).body.price).toBe(12.5);
    expect((await two.call<string[]>('GET', '/api/products/categories')).body).toEqual(
      [...categories, update.body.category].sort((a, b) => a.localeCompare(b)),
    );
  });

  it("drops the other replica's answers when it only hears the product.updated event", async () => {
    const product = await created(one);
    expect((await readProduct(two, product._id)).name).toBe(product.name);
    // A change the first replica did not make itself reaches it as its event only, as one made by
    // a replica cut off from the others' direct messages would.
    await rawSet(product._id, { name: 'Renamed elsewhere' });
    const connection = await connect({ servers: inject('natsUrl') });
    try {
      await new JetStreamEvents(connection, pino({ level: 'silent' })).publish(
        newEvent(PRODUCT_UPDATED, {
          productId: product._id,
          slug: product.slug,
          name: 'Renamed elsewhere',
          price: product.price,
          countInStock: product.countInStock,
        }),
      );
    } finally {
      await connection.close();
    }
    await expect
      .poll(async () => (await readProduct(two, product._id)).name, { timeout: 1_000 })
      .toBe('Renamed elsewhere');
  });

  it('shows stock taken by an order on every replica, lists included, within a second', async () => {
    const product = await created(one, 5);
    const listed = async (on: ProductsHarness) =>
      (await on.call<Product[]>('GET', '/api/products?category=Cached&pageSize=100')).body.find(
        (p) => p._id === product._id,
      )?.countInStock;
    for (const on of [one, two]) {
      expect((await readProduct(on, product._id)).countInStock).toBe(5);
      expect(await listed(on)).toBe(5);
    }
    await orderTwoOf(product, async (on) => expect(await listed(on)).toBe(3));
  });
});

describe('the order path', () => {
  it('reserves against the database, whatever a cached answer still shows', async () => {
    const cache = one.app.get(CatalogCache);
    const before = cache.generation;
    const product = await created(one, 5);
    // A creation empties the cache twice: at once (its own write), then when its product.created event
    // comes back. Only a read after both stays cached.
    await expect.poll(() => cache.generation, { timeout: 5_000 }).toBeGreaterThanOrEqual(before + 2);
    expect((await readProduct(one, product._id)).countInStock).toBe(5);
    // Sold out behind the service's back: the cached answer still shows 5 ...
    await rawSet(product._id, { countInStock: 0 });
    expect((await readProduct(one, product._id)).countInStock).toBe(5);
    // ... but a reservation reads the database and is refused.
    const refused = await reserve({
      reservationId: new Types.ObjectId().toHexString(),
      items: [{ productId: product._id, quantity: 1 }],
    });
    expect(refused).toBe(409);
  });
});

describe('what an order drops', () => {
  it('drops only the answers showing the products it took stock of, on every replica', async () => {
    const caches = [one, two].map((on) => on.app.get(CatalogCache));
    const before = caches.map((cache) => cache.generation);
    const [taken, other] = [await created(one, 5), await created(one, 5)];
    // Each creation empties both caches twice (the write or its message, then its product.updated event).
    for (const [i, cache] of caches.entries())
      await expect.poll(() => cache.generation, { timeout: 5_000 }).toBeGreaterThanOrEqual(before[i]! + 4);
    for (const on of [one, two]) {
      expect((await readProduct(on, taken._id)).countInStock).toBe(5);
      expect((await readProduct(on, other._id)).countInStock).toBe(5);
    }
    // Changed behind the service's back: only a drop of every answer would show it.
    await rawSet(other._id, { countInStock: 1 });
    await orderTwoOf(taken, async (on) => expect((await readProduct(on, other._id)).countInStock).toBe(5));
  });
});

describe('what the service announces for caches outside it', () => {
  it('says on catalog.changed, once per write, that anything changed (an admin) or only stock (an order)', async () => {
    const connection = await connect({ servers: inject('natsUrl') });
    const heard: CatalogChangedMessage[] = [];
    const codec = JSONCodec<CatalogChangedMessage>();
    connection.subscribe(CATALOG_CHANGED, {
      callback: (_error, message) => heard.push(codec.decode(message.data)),
    });
    await connection.flush();
    try {
      const product = await created(one, 5);
      await expect.poll(() => heard.length, { timeout: 5_000 }).toBeGreaterThan(0);
      expect(heard).toEqual(heard.map(() => ({})));
      heard.length = 0;
      const reply = await reserve({
        reservationId: new Types.ObjectId().toHexString(),
        items: [{ productId: product._id, quantity: 1 }],
      });
      expect(reply).toMatchObject({ items: [{ productId: product._id, quantity: 1 }] });
      await expect.poll(() => heard, { timeout: 5_000 }).toEqual([{ productIds: [product._id] }]);
      // The other replica made no write: it announces nothing of its own (wait past a second message).
      await connection.flush();
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(heard).toEqual([{ productIds: [product._id] }]);
    } finally {
      await connection.close();
    }
  });
});

describe('without a cache', () => {
  it('is off when given no room, and still answers', async () => {
    const off = await startProducts({ CATALOG_CACHE_MAX_ENTRIES: '0' });
    try {
      const product = await created(off);
      expect((await readProduct(off, product._id)).name).toBe(product.name);
      await off.db
        .collection('products')
        .updateOne({ _id: new Types.ObjectId(product._id) }, { $set: { name: 'Read from the database' } });
      expect((await readProduct(off, product._id)).name).toBe('Read from the database');
      expect(off.app.get(CatalogCache).size).toBe(0);
    } finally {
      await off.close();
    }
  });
});
