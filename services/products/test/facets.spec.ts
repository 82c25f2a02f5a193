import type { Product, ProductFacets } from '@shop/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ProductsHarness, mediaUrl, startProducts } from './support/products.harness';

let shop: ProductsHarness;

const facets = (query = '') =>
  shop.call<ProductFacets & { message?: string }>('GET', `/api/products/facets${query}`);

/** A facet's values as the API answers them, `{ value, count }` each, in the order written here. */
const counted = (counts: Record<string, number>) =>
  Object.entries(counts).map(([value, count]) => ({ value, count }));

/** A small catalogue of its own: two categories, three brands, one deleted product. */
const CATALOGUE = [
  { name: 'Facet Pistol A', category: 'Pistols', brand: 'Glock', price: 500 },
  { name: 'Facet Pistol B', category: 'Pistols', brand: 'Glock', price: 650 },
  { name: 'Facet Pistol C', category: 'Pistols', brand: 'SIG Sauer', price: 700 },
  { name: 'Facet Dot', category: 'Optics', brand: 'Holosun', price: 300 },
  { name: 'Facet Glock Dot', category: 'Optics', brand: 'Glock', price: 90 },
];

beforeAll(async () => {
  shop = await startProducts();
  for (const product of [
    ...CATALOGUE,
    { name: 'Facet Deleted', category: 'Gone', brand: 'Nobody', price: 5 },
  ]) {
    const answer = await shop.call<Product>('POST', '/api/listings/create', {
      token: shop.adminToken,
      body: { ...product, image: [mediaUrl()], countInStock: 2, description: `${product.name} for facets.` },
    });
    expect(answer.status).toBe(201);
    if (product.category === 'Gone') {
      const removed = await shop.call('DELETE', `/api/products/delete/${answer.body._id}`, {
        token: shop.adminToken,
      });
      expect(removed.status).toBe(200);
    }
  }
});

afterAll(async () => {
  await shop?.close();
});

describe('GET /api/products/facets', () => {
  it('answers every live category and brand with its count, sorted by value', async () => {
    const { status, body } = await facets();
    expect(status).toBe(200);
    expect(body).toEqual({
      categories: counted({ Optics: 2, Pistols: 3 }),
      brands: counted({ Glock: 3, Holosun: 1, 'SIG Sauer': 1 }),
    });
  });

  it('counts only the products the text search matches', async () => {
    const { body } = await facets('?query=glock');
    expect(body.categories).toEqual(counted({ Optics: 1, Pistols: 2 }));
    expect(body.brands).toEqual(counted({ Glock: 3 }));
  });

  it('counts each facet with the other filters only, so a chosen value keeps its alternatives', async () => {
    const { body } = await facets('?category=Pistols&brand=Glock');
    expect(body.categories).toEqual(counted({ Optics: 1, Pistols: 2 }));
    expect(body.brands).toEqual(counted({ Glock: 2, 'SIG Sauer': 1 }));
  });

  it('applies the price range to both facets, and agrees with the list total', async () => {
    const { body } = await facets('?category=Pistols&minPrice=600&maxPrice=700');
    expect(body.brands).toEqual(counted({ Glock: 1, 'SIG Sauer': 1 }));
    const list = await shop.call<Product[]>(
      'GET',
      '/api/products?category=Pistols&minPrice=600&maxPrice=700',
    );
    expect(Number(list.headers.get('x-total-count'))).toBe(2);
  });

  it('answers empty facets when nothing matches', async () => {
    expect((await facets('?query=nothing-like-this')).body).toEqual({ categories: [], brands: [] });
  });

  it('ignores the order and paging of the list', async () => {
    const { status, body } = await facets('?sort=price-asc&page=2&pageSize=1');
    expect(status).toBe(200);
    expect(body.categories).toHaveLength(2);
  });

  it.each([
    'minPrice=abc',
    'minPrice=10&maxPrice=5',
    'maxPrice=-1',
    `query=${'x'.repeat(101)}`,
    'brand=a&brand=b',
  ])('refuses ?%s with a 400 JSON message', async (query) => {
    const { status, body } = await facets(`?${query}`);
    expect(status).toBe(400);
    expect(body.message).toEqual(expect.any(String));
  });

  it('never reads an operator out of the query string', async () => {
    const { status, body } = await facets('?brand[$ne]=Glock');
    expect(status).toBe(200);
    expect(body).toEqual((await facets()).body);
  });
});
