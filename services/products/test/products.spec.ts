import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Product } from '@shop/contracts';
import { bootstrapService, createServiceContext, loadConfig } from '@shop/service-kit';
import { mongoUrlFor, uniqueDbName } from '@shop/testing';
import mongoose from 'mongoose';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { AppModule } from '../src/app.module';
import { productsConfigSchema } from '../src/config/products.config';
import { DEMO_CATALOGUE } from '../src/seed/demo-catalogue';
import { SeedService } from '../src/seed/seed.service';

let app: NestFastifyApplication;
let base: string;
let mongoUrl: string;

async function get<T>(path: string): Promise<{ status: number; body: T; headers: Headers }> {
  const response = await fetch(`${base}${path}`);
  const isJson = response.headers.get('content-type')?.includes('json');
  return {
    status: response.status,
    body: (isJson ? await response.json() : null) as T,
    headers: response.headers,
  };
}

beforeAll(async () => {
  mongoUrl = mongoUrlFor(inject('mongoUrl'), uniqueDbName('products'));
  const config = loadConfig(productsConfigSchema, {
    PORT: '0',
    HOST: '127.0.0.1',
    MONGO_URL: mongoUrl,
    NATS_URL: inject('natsUrl'),
    LOG_LEVEL: 'warn',
  });
  const context = createServiceContext('products', config);
  app = await bootstrapService(context, AppModule.register(context));
  base = await app.getUrl();
});

afterAll(async () => {
  await app?.close();
});

describe('products service', () => {
  it('seeds the demo catalogue and lists it', async () => {
    const { status, body } = await get<Product[]>('/api/products');
    expect(status).toBe(200);
    expect(body).toHaveLength(DEMO_CATALOGUE.length);
    const glock = body.find((p) => p.slug === 'glock-19-gen5');
    expect(glock).toMatchObject({
      name: 'Glock 19 Gen5 9mm',
      brand: 'Glock',
      price: 599.99,
      countInStock: 12,
    });
    expect(typeof glock?._id).toBe('string');
    expect(body.some((p) => p.countInStock === 0)).toBe(true);
  });

  it('seeds only once, even when the seed runs again', async () => {
    expect(await app.get(SeedService).seed()).toBe(0);
    expect((await get<Product[]>('/api/products')).body).toHaveLength(DEMO_CATALOGUE.length);
  });

  it('does not seed again after products were deleted', async () => {
    const connection = await mongoose.createConnection(mongoUrl).asPromise();
    try {
      await connection.collection('products').deleteOne({ slug: 'otis-9mm-cleaning-kit' });
      expect(await app.get(SeedService).seed()).toBe(0);
      expect((await get<Product[]>('/api/products')).body).toHaveLength(DEMO_CATALOGUE.length - 1);
    } finally {
      await connection.close();
    }
  });

  it('answers one product by id and by slug', async () => {
    const [first] = (await get<Product[]>('/api/products')).body;
    const byId = await get<Product>(`/api/products/${first!._id}`);
    expect(byId.status).toBe(200);
    expect(byId.body).toEqual(first);
    const bySlug = await get<Product>(`/api/products/slug/${first!.slug}`);
    expect(bySlug.body).toEqual(first);
  });

  it("answers 404 'Product Not Found' for an unknown slug or id", async () => {
    expect(await get('/api/products/slug/no-such-thing')).toMatchObject({
      status: 404,
      body: { message: 'Product Not Found' },
    });
    expect((await get('/api/products/64b7f0000000000000000000')).status).toBe(404);
  });

  it('answers 400 for a malformed id', async () => {
    expect(await get('/api/products/not-an-id')).toMatchObject({
      status: 400,
      body: { message: 'Invalid product id' },
    });
  });

  it('lists the categories, sorted and distinct', async () => {
    const { body } = await get<string[]>('/api/products/categories');
    const expected = [...new Set(DEMO_CATALOGUE.map((p) => p.category))].sort((a, b) => a.localeCompare(b));
    expect(body).toEqual(expected);
  });

  it('lists a category', async () => {
    const { body } = await get<Product[]>('/api/products/category/Optics');
    expect(body.length).toBeGreaterThan(0);
    expect(body.every((p) => p.category === 'Optics')).toBe(true);
    expect((await get<Product[]>('/api/products/category/Nothing')).body).toEqual([]);
  });

  it('treats a query operator in the path as plain text', async () => {
    const { status, body } = await get<Product[]>(
      `/api/products/category/${encodeURIComponent('{"$ne":null}')}`,
    );
    expect(status).toBe(200);
    expect(body).toEqual([]);
  });

  it('serves every seeded image as a real PNG with long-lived caching', async () => {
    const products = (await get<Product[]>('/api/products')).body;
    const urls = products.flatMap((p) => p.image);
    expect(urls.length).toBeGreaterThanOrEqual(products.length);
    const response = await fetch(`${base}${urls[0]}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(response.headers.get('cache-control')).toContain('immutable');
    const png = PNG.sync.read(Buffer.from(await response.arrayBuffer()));
    expect(png.width).toBe(640);
    expect((await fetch(`${base}/api/products/demo-images/unknown.png`)).status).toBe(404);
  });
});

describe('listing order', () => {
  it('lists the catalogue newest first, the seed keeping its written order', async () => {
    const { body } = await get<Product[]>('/api/products');
    const expected = DEMO_CATALOGUE.map((p) => p.slug).filter((slug) => body.some((p) => p.slug === slug));
    expect(body.map((p) => p.slug)).toEqual(expected);
  });
});
