import { type Product, isMediaUrl } from '@shop/contracts';
import {
  type ServiceProcess,
  createTestTokens,
  mongoUrlFor,
  startServiceProcess,
  uniqueDbName,
} from '@shop/testing';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEMO_CATALOG } from '../src/seed/demo-catalog';
import { SeedService } from '../src/seed/seed.service';
import { type ProductsHarness, mediaUrl, startProducts } from './support/products.harness';

let shop: ProductsHarness;
// The real media service, built and run as its own process on its own database: the seed stores
// every picture through it, and the gateway in front of products routes /api/media to it.
let media: ServiceProcess;
const mediaEnv = {
  MONGO_URL: mongoUrlFor(inject('mongoUrl'), uniqueDbName('media')),
  NATS_URL: inject('natsUrl'),
  JWT_PUBLIC_KEY: createTestTokens().publicKeyPem,
  LOG_LEVEL: 'warn',
};
/** Starts media, on the port it had before when it is restarted. */
const startMedia = (port?: number) =>
  startServiceProcess('media', port === undefined ? mediaEnv : { ...mediaEnv, PORT: String(port) });

const get = <T>(path: string) => shop.call<T>('GET', path);
/** Each demo product's pictures as the first seed stored them, by slug. */
let firstSeedImages: Map<string, string[]>;
const total = (headers: Headers) => Number(headers.get('x-total-count'));

beforeAll(async () => {
  media = await startMedia();
  shop = await startProducts({ SEED_DEMO_DATA: 'true' }, { upstreams: { media: `127.0.0.1:${media.port}` } });
  firstSeedImages = new Map((await get<Product[]>('/api/products')).body.map((p) => [p.slug, p.image]));
});

afterAll(async () => {
  await shop?.close();
  await media?.stop();
});

describe('demo catalogue seed', () => {
  it('seeds the demo catalogue before the service answers, and lists it with its total', async () => {
    const { status, body, headers } = await get<Product[]>('/api/products');
    expect(status).toBe(200);
    expect(body).toHaveLength(DEMO_CATALOG.length);
    expect(total(headers)).toBe(DEMO_CATALOG.length);
    expect(body.find((p) => p.slug === 'glock-19-gen5')).toMatchObject({
      name: 'Glock 19 Gen5 9mm',
      brand: 'Glock',
      price: 599.99,
      countInStock: 12,
    });
    expect(body.some((p) => p.countInStock === 0)).toBe(true);
  });

  it('stores every picture through media, which serves each as a real PNG small enough for one NATS message', async () => {
    const products = (await get<Product[]>('/api/products')).body;
    const urls: string[] = [];
    for (const demo of DEMO_CATALOG) {
      const product = products.find((p) => p.slug === demo.slug)!;
      expect(product.image).toHaveLength(demo.imageCount);
      urls.push(...product.image);
    }
    expect(new Set(urls).size).toBe(urls.length);
    for (const url of urls) {
      expect(isMediaUrl(url)).toBe(true);
      expect(url).toMatch(/-[a-z0-9-]+-\d\.png$/);
      const response = await fetch(`${shop.url}${url}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('image/png');
      const bytes = Buffer.from(await response.arrayBuffer());
      // The seed sends each picture base64-encoded in one NATS message (1 MB at most by default).
      expect(Math.ceil(bytes.length / 3) * 4).toBeLessThan(512 * 1024);
      const png = PNG.sync.read(bytes);
      expect([png.width, png.height]).toEqual([640, 480]);
    }
  });

  it('seeds only once, even when the seed runs again', async () => {
    expect(await shop.app.get(SeedService).seed()).toBe(0);
    expect((await get<Product[]>('/api/products')).body).toHaveLength(DEMO_CATALOG.length);
  });

  it('gives up after SEED_MEDIA_WAIT_MS when media never answers, and still starts', async () => {
    await media.stop();
    const started = Date.now();
    const alone = await startProducts({
      SEED_DEMO_DATA: 'true',
      SEED_MEDIA_WAIT_MS: '1500',
      NATS_REQUEST_TIMEOUT_MS: '300',
      // The error it logs is the expected outcome here.
      LOG_LEVEL: 'silent',
    });
    try {
      expect(Date.now() - started).toBeGreaterThanOrEqual(1_500);
      expect((await alone.call<Product[]>('GET', '/api/products')).body).toEqual([]);
      expect(await alone.db.collection('seed_markers').countDocuments()).toBe(0);
    } finally {
      await alone.close();
      media = await startMedia(media.port);
    }
  });

  it('waits for media to come up while services start together', async () => {
    await media.stop();
    let restarted: Promise<ServiceProcess> | undefined;
    const late = setTimeout(() => (restarted = startMedia(media.port)), 1_000);
    const waiting = await startProducts({ SEED_DEMO_DATA: 'true', NATS_REQUEST_TIMEOUT_MS: '300' });
    try {
      clearTimeout(late);
      const seeded = (await waiting.call<Product[]>('GET', '/api/products')).body;
      expect(seeded).toHaveLength(DEMO_CATALOG.length);
      // A second catalogue seeded through the same media gets the pictures media already stores.
      for (const product of seeded) expect(product.image).toEqual(firstSeedImages.get(product.slug));
    } finally {
      await waiting.close();
      if (restarted) media = await restarted;
    }
  });
});

describe('catalogue reads', () => {
  it('answers one product by id and by slug', async () => {
    const [first] = (await get<Product[]>('/api/products')).body;
    expect((await get<Product>(`/api/products/${first!._id}`)).body).toEqual(first);
    expect((await get<Product>(`/api/products/slug/${first!.slug}`)).body).toEqual(first);
  });

  it("answers 404 'Product Not Found' for an unknown slug or id, 400 for a malformed id", async () => {
    expect(await get('/api/products/slug/no-such-thing')).toMatchObject({
      status: 404,
      body: { message: 'Product Not Found' },
    });
    expect((await get('/api/products/64b7f0000000000000000000')).status).toBe(404);
    expect(await get('/api/products/not-an-id')).toMatchObject({
      status: 400,
      body: { message: 'Invalid product id' },
    });
    expect((await get('/api/products/abcdefghijkl')).status).toBe(400);
  });

  it('lists the categories, sorted and distinct, and one category', async () => {
    const { body } = await get<string[]>('/api/products/categories');
    expect(body).toEqual(
      [...new Set(DEMO_CATALOG.map((p) => p.category))].sort((a, b) => a.localeCompare(b)),
    );
    const optics = (await get<Product[]>('/api/products/category/Optics')).body;
    expect(optics.length).toBeGreaterThan(0);
    expect(optics.every((p) => p.category === 'Optics')).toBe(true);
    expect((await get<Product[]>('/api/products/category/Nothing')).body).toEqual([]);
  });

  it('treats a query operator in the path as plain text', async () => {
    const { status, body } = await get<Product[]>(
      `/api/products/category/${encodeURIComponent('{"$ne":null}')}`,
    );
    expect(status).toBe(200);
    expect(body).toEqual([]);
  });

  it('lists the catalogue newest first, the seed keeping its written order', async () => {
    const { body } = await get<Product[]>('/api/products');
    const expected = DEMO_CATALOG.map((p) => p.slug).filter((slug) => body.some((p) => p.slug === slug));
    expect(body.map((p) => p.slug)).toEqual(expected);
  });
});

describe('search and filters', () => {
  let all: Product[];
  const matches = (product: Product, text: string) =>
    [product.name, product.brand, product.category, product.description].some((field) =>
      field.toLowerCase().includes(text.toLowerCase()),
    );

  beforeAll(async () => {
    for (const name of ['Odd Name .* Special', 'Regex (a+)+$ Trap']) {
      const answer = await shop.call('POST', '/api/listings/create', {
        token: shop.adminToken,
        body: {
          name,
          image: [mediaUrl()],
          category: 'Oddities',
          brand: 'Acme',
          price: 5,
          countInStock: 3,
          description: 'Text that looks like a pattern.',
        },
      });
      expect(answer.status).toBe(201);
    }
    all = (await get<Product[]>('/api/products')).body;
  });

  it('finds text case-insensitively in name, brand, category and description', async () => {
    for (const text of ['GLOCK', 'optics', 'holster', 'concealed carry']) {
      const { status, body, headers } = await get<Product[]>(
        `/api/products?query=${encodeURIComponent(text)}`,
      );
      expect(status).toBe(200);
      const expected = all.filter((p) => matches(p, text));
      expect(expected.length, text).toBeGreaterThan(0);
      expect(body.map((p) => p._id).sort()).toEqual(expected.map((p) => p._id).sort());
      expect(total(headers)).toBe(expected.length);
    }
  });

  it('treats the query as text, never as a pattern', async () => {
    const dotStar = await get<Product[]>(`/api/products?query=${encodeURIComponent('.*')}`);
    expect(dotStar.body.map((p) => p.name)).toEqual(['Odd Name .* Special']);
    // Read as a pattern, `(a+)+$` (a run of a's at the end) matches none of this product's fields, so
    // finding exactly it proves the text was searched as text; no latency bound is needed (a
    // backtracking hang would meet the test's timeout).
    const catastrophic = await get<Product[]>(`/api/products?query=${encodeURIComponent('(a+)+$')}`);
    expect(catastrophic.body.map((p) => p.name)).toEqual(['Regex (a+)+$ Trap']);
    expect((await get<Product[]>(`/api/products?query=${encodeURIComponent('[')}`)).status).toBe(200);
  });

  it('never reads an operator out of the query string', async () => {
    const asOperator = await get<Product[]>('/api/products?query[$regex]=.*&category[$ne]=x');
    expect(asOperator.status).toBe(200);
    expect(asOperator.body).toHaveLength(all.length);
    const repeated = await get('/api/products?query=a&query=b');
    expect(repeated.status).toBe(400);
  });

  it('filters by category, brand and price range', async () => {
    const { body, headers } = await get<Product[]>(
      '/api/products?category=Pistols&brand=Glock&minPrice=550&maxPrice=610',
    );
    const expected = all.filter(
      (p) => p.category === 'Pistols' && p.brand === 'Glock' && p.price >= 550 && p.price <= 610,
    );
    expect(expected.length).toBeGreaterThan(0);
    expect(body.map((p) => p._id).sort()).toEqual(expected.map((p) => p._id).sort());
    expect(total(headers)).toBe(expected.length);
  });

  it.each([
    ['price-asc', (a: Product, b: Product) => a.price - b.price],
    ['price-desc', (a: Product, b: Product) => b.price - a.price],
    ['rating', (a: Product, b: Product) => b.rating - a.rating || b.numReviews - a.numReviews],
    ['name', (a: Product, b: Product) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)],
  ])('sorts by %s', async (sort, compare) => {
    const { body } = await get<Product[]>(`/api/products?sort=${sort}`);
    expect(body).toHaveLength(all.length);
    for (let i = 1; i < body.length; i += 1) expect(compare(body[i - 1]!, body[i]!)).toBeLessThanOrEqual(0);
  });

  it('pages, with the total of all matches in X-Total-Count', async () => {
    const sorted = (await get<Product[]>('/api/products?sort=price-asc')).body;
    const page2 = await get<Product[]>('/api/products?sort=price-asc&page=2&pageSize=5');
    expect(page2.body).toEqual(sorted.slice(5, 10));
    expect(total(page2.headers)).toBe(all.length);
    const beyond = await get<Product[]>('/api/products?page=100&pageSize=5');
    expect(beyond).toMatchObject({ status: 200, body: [] });
    expect(total(beyond.headers)).toBe(all.length);
    expect((await get<Product[]>('/api/products?page=1')).body).toHaveLength(Math.min(50, all.length));
  });

  it.each([
    'sort=cheapest',
    'page=0',
    'page=1.5',
    'pageSize=0',
    'pageSize=101',
    'minPrice=-1',
    'minPrice=abc',
    'minPrice=10&maxPrice=5',
    `query=${'x'.repeat(101)}`,
  ])('refuses ?%s (400)', async (query) => {
    const answer = await get<{ message: string }>(`/api/products?${query}`);
    expect(answer.status).toBe(400);
    expect(answer.body.message).toEqual(expect.any(String));
  });

  it('treats empty parameters as absent', async () => {
    const { body } = await get<Product[]>('/api/products?query=&category=&minPrice=&sort=');
    expect(body).toEqual(all);
  });
});
