import {
  ADMIN_ACTION,
  PRODUCT_DELETED,
  PRODUCT_UPDATED,
  type Product,
  type ProductInput,
  type ProductUpdatedEvent,
} from '@shop/contracts';
import { adminActionsOn } from '@shop/service-kit/testing';
import { Types } from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ProductsHarness, mediaUrl, startProducts } from './support/products.harness';

let shop: ProductsHarness;

beforeAll(async () => {
  shop = await startProducts({}, { events: [PRODUCT_UPDATED, PRODUCT_DELETED, ADMIN_ACTION] });
});

afterAll(async () => {
  await shop?.close();
});

const input = (overrides: Partial<Record<keyof ProductInput, unknown>> = {}): Record<string, unknown> => ({
  name: 'Trijicon RMR Type 2',
  slug: '',
  image: [mediaUrl('rmr-1'), mediaUrl('rmr-2')],
  category: 'Optics',
  brand: 'Trijicon',
  price: 549.99,
  countInStock: 7,
  description: 'Rugged red dot for pistols.',
  rating: 0,
  numReviews: 0,
  ...overrides,
});

let counter = 0;
const unique = (name: string) => `${name} ${Date.now()}-${(counter += 1)}`;

const create = (body: unknown, token = shop.adminToken) =>
  shop.call<Product & { message?: string }>('POST', '/api/listings/create', { token, body });
const update = (id: string, body: unknown) =>
  shop.call<Product & { message?: string }>('POST', `/api/products/update/${id}`, {
    token: shop.adminToken,
    body,
  });
const remove = (id: string) =>
  shop.call<{ message: string }>('DELETE', `/api/products/delete/${id}`, { token: shop.adminToken });

async function created(overrides: Parameters<typeof input>[0] = {}): Promise<Product> {
  const answer = await create(input({ name: unique('Product'), ...overrides }));
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body;
}

describe('creating a listing', () => {
  it('answers 201 with the product, slug made from the name, rating and reviews at 0', async () => {
    const name = unique('Trijicon RMR Type 2');
    const answer = await create(input({ name, rating: 4.5, numReviews: 12 }));
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({
      name,
      slug: name.toLowerCase().replace(/ /g, '-'),
      category: 'Optics',
      brand: 'Trijicon',
      price: 549.99,
      countInStock: 7,
      rating: 0,
      numReviews: 0,
    });
    expect(answer.body).not.toHaveProperty('outbox');
    expect(answer.body).not.toHaveProperty('deletedAt');
    const read = await shop.call<Product>('GET', `/api/products/${answer.body._id}`);
    expect(read.body).toEqual(answer.body);
  });

  it("keeps the admin's slug, normalised, and trims text fields", async () => {
    const slug = `My Special ${Date.now()}`;
    const answer = await create(input({ name: `  ${unique('Spaced')}  `, slug, brand: '  Trijicon ' }));
    expect(answer.status).toBe(201);
    expect(answer.body.slug).toBe(slug.toLowerCase().replace(/ /g, '-'));
    expect(answer.body.brand).toBe('Trijicon');
    expect(answer.body.name).not.toMatch(/^\s|\s$/);
  });

  it('answers 409 when the slug is taken, given or made from the name', async () => {
    const first = await created();
    expect(await create(input({ name: unique('Other'), slug: first.slug }))).toMatchObject({
      status: 409,
      body: { message: 'A product with this slug already exists' },
    });
    expect((await create(input({ name: first.name }))).status).toBe(409);
  });

  it('answers 401 without a token and 403 to a customer, creating nothing', async () => {
    const name = unique('Forbidden');
    await shop.expectAdminOnly('POST', '/api/listings/create', { body: input({ name }) });
    expect((await create(input({ name }), 'not-a-token')).status).toBe(401);
    const search = await shop.call<Product[]>('GET', `/api/products?query=${encodeURIComponent(name)}`);
    expect(search.body).toEqual([]);
  });

  it.each([
    ['name', { name: undefined }, 'name is required'],
    ['description', { description: '' }, 'description is required'],
    ['brand', { brand: '   ' }, 'brand is required'],
    ['category', { category: undefined }, 'category is required'],
    ['price', { price: undefined }, 'price must be a number'],
    ['countInStock', { countInStock: undefined }, 'countInStock must be an integer'],
  ])('refuses a listing without %s (400)', async (_field, overrides, message) => {
    const answer = await create(input({ name: unique('Missing'), ...overrides }));
    expect(answer.status).toBe(400);
    expect(answer.body.message).toContain(message);
  });

  it.each([
    ['a price of 0', { price: 0 }, 'price must not be less than 1'],
    ['a price with three decimals', { price: 1.005 }, 'price must be a number with at most two decimals'],
    ['a price given as text', { price: '12' }, 'price must be a number'],
    ['no stock on create', { countInStock: 0 }, 'countInStock must not be less than 1'],
    ['a fractional stock', { countInStock: 1.5 }, 'countInStock must be an integer'],
    ['no image', { image: [] }, 'You must upload at least one image'],
    [
      'six images',
      { image: Array.from({ length: 6 }, () => mediaUrl()) },
      'You can only upload 5 images per listing',
    ],
    ['a javascript: URL', { image: ['javascript:alert(1)'] }, '/api/media/'],
    ['another host', { image: ['https://evil.example/a.png'] }, '/api/media/'],
    ['a file: URL', { image: ['file:///etc/passwd'] }, '/api/media/'],
    ['a path out of media', { image: ['/api/media/0123456789abcdef01234567/../../products'] }, '/api/media/'],
    ['a rating over 5', { rating: 6 }, 'rating must not be greater than 5'],
    ['negative reviews', { numReviews: -1 }, 'numReviews must not be less than 0'],
    ['an operator object for the name', { name: { $ne: null } }, 'name must be a string'],
    ['an operator object for the price', { price: { $gt: 0 } }, 'price must be a number'],
  ])('refuses %s (400)', async (_case, overrides, message) => {
    const answer = await create(input({ name: unique('Invalid'), ...overrides }));
    expect(answer.status).toBe(400);
    expect(answer.body.message).toContain(message);
  });

  it('accepts the bounds: price 1 and two decimals, stock 1, five images', async () => {
    const answer = await create(
      input({
        name: unique('Bounds'),
        price: 1.01,
        countInStock: 1,
        image: Array.from({ length: 5 }, () => mediaUrl()),
      }),
    );
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({ price: 1.01, countInStock: 1 });
    expect(answer.body.image).toHaveLength(5);
  });

  it('ignores fields it does not know, such as an id or an outbox', async () => {
    const answer = await create({
      ...input({ name: unique('Extra') }),
      _id: '0123456789abcdef01234567',
      outbox: [1],
      deletedAt: '2020-01-01',
    });
    expect(answer.status).toBe(201);
    expect(answer.body._id).not.toBe('0123456789abcdef01234567');
    expect((await shop.call('GET', `/api/products/${answer.body._id}`)).status).toBe(200);
  });

  it('answers 400 for malformed JSON', async () => {
    const response = await fetch(`${shop.url}/api/listings/create`, {
      method: 'POST',
      headers: { authorization: `Bearer ${shop.adminToken}`, 'content-type': 'application/json' },
      body: '{"name": ',
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toHaveProperty('message');
  });
});

describe('updating a product', () => {
  it('answers 200 with the product, keeping its slug, rating and reviews when none is given', async () => {
    const product = await created();
    await shop.db
      .collection('products')
      .updateOne({ slug: product.slug }, { $set: { rating: 4, numReviews: 3 } });
    const answer = await update(
      product._id,
      input({ name: `${product.name} v2`, slug: '', price: 10.5, countInStock: 0, rating: 1, numReviews: 0 }),
    );
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      _id: product._id,
      name: `${product.name} v2`,
      slug: product.slug,
      price: 10.5,
      countInStock: 0,
      rating: 4,
      numReviews: 3,
    });
    expect((await shop.call<Product>('GET', `/api/products/slug/${product.slug}`)).body).toEqual(answer.body);
  });

  it('changes the slug when one is given, and answers 409 when it is taken', async () => {
    const [a, b] = [await created(), await created()];
    const renamed = await update(a._id, input({ name: a.name, slug: `${a.slug}-new` }));
    expect(renamed).toMatchObject({ status: 200, body: { slug: `${a.slug}-new` } });
    expect(await update(a._id, input({ name: a.name, slug: b.slug }))).toMatchObject({
      status: 409,
      body: { message: 'A product with this slug already exists' },
    });
  });

  it('refuses a negative stock, no image and foreign URLs (400)', async () => {
    const product = await created();
    expect((await update(product._id, input({ countInStock: -1 }))).body.message).toContain(
      'countInStock must not be less than 0',
    );
    expect((await update(product._id, input({ image: [] }))).status).toBe(400);
    expect((await update(product._id, input({ image: ['https://evil.example/a.png'] }))).status).toBe(400);
  });

  it('answers 401, 403, 404 and 400 as it should', async () => {
    const product = await created();
    await shop.expectAdminOnly('POST', `/api/products/update/${product._id}`, { body: input() });
    expect(await update('0123456789abcdef01234567', input())).toMatchObject({
      status: 404,
      body: { message: 'Product Not Found' },
    });
    expect(await update('nope', input())).toMatchObject({
      status: 400,
      body: { message: 'Invalid product id' },
    });
  });
});

describe('deleting a product', () => {
  it('answers 200, then the product is gone from every read and its slug is free again', async () => {
    const product = await created({ category: `Deleted-${Date.now()}` });
    expect(await remove(product._id)).toMatchObject({ status: 200, body: { message: 'Product deleted' } });
    expect((await shop.call('GET', `/api/products/${product._id}`)).status).toBe(404);
    expect((await shop.call('GET', `/api/products/slug/${product.slug}`)).status).toBe(404);
    expect((await shop.call<Product[]>('GET', `/api/products/category/${product.category}`)).body).toEqual(
      [],
    );
    expect((await shop.call<string[]>('GET', '/api/products/categories')).body).not.toContain(
      product.category,
    );
    const list = await shop.call<Product[]>('GET', '/api/products');
    expect(list.body.map((p) => p._id)).not.toContain(product._id);
    expect(await remove(product._id)).toMatchObject({ status: 404, body: { message: 'Product Not Found' } });
    expect((await update(product._id, input())).status).toBe(404);
    expect((await create(input({ name: product.name, slug: product.slug }))).status).toBe(201);
  });

  it('answers 401 and 403 and leaves the product alone', async () => {
    const product = await created();
    await shop.expectAdminOnly('DELETE', `/api/products/delete/${product._id}`);
    expect((await shop.call('GET', `/api/products/${product._id}`)).status).toBe(200);
  });
});

describe('product events', () => {
  it('publishes product.updated on create and update, and empties the outbox', async () => {
    const product = await created({ price: 99.5, countInStock: 4 });
    const onCreate = (await shop.waitForEvent(
      (event) =>
        event.type === PRODUCT_UPDATED && (event as ProductUpdatedEvent).data.productId === product._id,
    )) as ProductUpdatedEvent;
    expect(onCreate.data).toEqual({
      productId: product._id,
      slug: product.slug,
      name: product.name,
      price: 99.5,
      countInStock: 4,
    });
    await update(product._id, input({ name: product.name, price: 120, countInStock: 2 }));
    await shop.waitForEvent(
      (event) =>
        event.type === PRODUCT_UPDATED &&
        (event as ProductUpdatedEvent).data.productId === product._id &&
        (event as ProductUpdatedEvent).data.price === 120,
    );
    await expect
      .poll(async () => (await rawProduct(product._id))?.['outbox'], { timeout: 5_000 })
      .toEqual([]);
  });

  it('publishes product.deleted on delete, from the soft-deleted document', async () => {
    const product = await created();
    await remove(product._id);
    const deleted = await shop.waitForEvent(
      (event) =>
        event.type === PRODUCT_DELETED && (event.data as { productId: string }).productId === product._id,
    );
    expect(deleted.data).toEqual({ productId: product._id });
    await expect
      .poll(async () => (await rawProduct(product._id))?.['outbox'], { timeout: 5_000 })
      .toEqual([]);
    const doc = await rawProduct(product._id);
    expect(doc?.['deletedAt']).toBeInstanceOf(Date);
    expect(doc?.['deletedSlug']).toBe(product.slug);
  });
});

describe('the audit trail', () => {
  it('records who created, changed, restocked and deleted a product, with the fields before and after', async () => {
    const adminId = new Types.ObjectId().toHexString();
    const token = await shop.tokens.sign({ isAdmin: true, sub: adminId });
    const name = unique('Audited Sight');
    const body = input({ name, price: 100, countInStock: 4 });
    const product = (await create(body, token)).body;
    const actions = (count: number) => adminActionsOn(shop, product._id, count);
    expect((await actions(1))[0]).toEqual({
      actorId: adminId,
      action: 'product.created',
      target: { type: 'product', id: product._id, label: name },
      before: null,
      after: expect.objectContaining({ name, slug: product.slug, price: 100, countInStock: 4 }),
    });

    await shop.call('POST', `/api/products/update/${product._id}`, {
      token,
      body: { ...body, price: 120 },
    });
    await shop.call('POST', `/api/products/update/${product._id}`, {
      token,
      body: { ...body, price: 120, countInStock: 9 },
    });
    await shop.call('DELETE', `/api/products/delete/${product._id}`, { token });
    const [, price, stock, deleted] = await actions(4);
    expect(price).toMatchObject({ action: 'product.updated', before: { price: 100 }, after: { price: 120 } });
    expect(stock).toEqual({
      actorId: adminId,
      target: { type: 'product', id: product._id, label: name },
      action: 'product.stock-changed',
      before: { countInStock: 4 },
      after: { countInStock: 9 },
    });
    expect(deleted).toMatchObject({
      actorId: adminId,
      action: 'product.deleted',
      before: { name, slug: product.slug, countInStock: 9 },
      after: null,
    });
  });

  it('records nothing for a refused change', async () => {
    const product = await created();
    const taken = await created();
    const refused = await shop.call('POST', `/api/products/update/${product._id}`, {
      token: shop.adminToken,
      body: input({ name: product.name, slug: taken.slug }),
    });
    expect(refused.status).toBe(409);
    await shop.call('DELETE', `/api/products/delete/${taken._id}`, { token: shop.adminToken });
    // Published after anything the refused change could have queued: once it is here, that would be too.
    await adminActionsOn(shop, taken._id, 2);
    const onProduct = await adminActionsOn(shop, product._id, 1);
    expect(onProduct.map((data) => data.action)).toEqual(['product.created']);
  });
});

function rawProduct(id: string): Promise<Record<string, unknown> | null> {
  return shop.db.collection('products').findOne({ _id: new Types.ObjectId(id) });
}
