import { Readable } from 'node:stream';
import { parseSitemap, parseSitemapIndex } from 'sitemap';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ProductsHarness, startProducts } from './support/products.harness';

const PUBLIC_URL = 'https://shop.example';
let shop: ProductsHarness;

/** A crawler's fetch through the gateway: the status, the content type and the text. */
async function fetchDocument(path: string): Promise<{ status: number; type: string | null; text: string }> {
  const answer = await fetch(`${shop.url}${path}`);
  return { status: answer.status, type: answer.headers.get('content-type'), text: await answer.text() };
}

/** Every URL the sitemap names, with its date: the index read, then each file it names. */
async function sitemapUrls(): Promise<Map<string, string | undefined>> {
  const index = await fetchDocument('/sitemap.xml');
  expect(index.status).toBe(200);
  expect(index.type).toMatch(/^application\/xml/);
  const files = await parseSitemapIndex(Readable.from([index.text]));
  const urls = new Map<string, string | undefined>();
  for (const file of files) {
    expect(file.url.startsWith(`${PUBLIC_URL}/sitemaps/`)).toBe(true);
    const answer = await fetchDocument(new URL(file.url).pathname);
    expect(answer.status).toBe(200);
    for (const item of await parseSitemap(Readable.from([answer.text]))) urls.set(item.url, item.lastmod);
  }
  return urls;
}

beforeAll(async () => {
  shop = await startProducts({ PUBLIC_URL });
});

afterAll(async () => {
  await shop?.close();
});

describe('robots.txt through the gateway', () => {
  it('keeps crawlers out of the private screens and the API and names the sitemap at the public address', async () => {
    const { status, type, text } = await fetchDocument('/robots.txt');
    expect(status).toBe(200);
    expect(type).toMatch(/^text\/plain/);
    expect(text).toContain('Disallow: /api/');
    expect(text).toContain('Disallow: /cart');
    expect(text).toMatch(/^Sitemap: https:\/\/shop\.example\/sitemap\.xml$/m);
  });
});

describe('the sitemap through the gateway', () => {
  it('lists every live product, every category and the fixed pages, and follows an admin’s changes', async () => {
    const kept = await shop.createProduct({ name: 'Sitemap Rifle', category: 'Long Guns & Co' });
    const removed = await shop.createProduct({ name: 'Sitemap Scope', category: 'Optics' });
    let urls = await sitemapUrls();
    expect(urls.has(`${PUBLIC_URL}/product/${kept.slug}`)).toBe(true);
    expect(urls.has(`${PUBLIC_URL}/product/${removed.slug}`)).toBe(true);
    expect(urls.has(`${PUBLIC_URL}/category/Long%20Guns%20%26%20Co`)).toBe(true);
    expect(urls.has(`${PUBLIC_URL}/category/Optics`)).toBe(true);
    for (const page of ['/', '/about', '/legal']) expect(urls.has(`${PUBLIC_URL}${page}`)).toBe(true);
    const before = urls.get(`${PUBLIC_URL}/product/${kept.slug}`);
    expect(Number.isNaN(Date.parse(before ?? ''))).toBe(false);

    // An admin removes one product, renames the other (a new slug) and adds a third.
    expect(
      (await shop.call('DELETE', `/api/products/delete/${removed._id}`, { token: shop.adminToken })).status,
    ).toBe(200);
    const renamed = await shop.call<{ slug: string }>('POST', `/api/products/update/${kept._id}`, {
      token: shop.adminToken,
      body: {
        name: 'Sitemap Rifle Mk II',
        image: kept.image,
        category: kept.category,
        brand: kept.brand,
        price: kept.price,
        countInStock: kept.countInStock,
        description: kept.description,
      },
    });
    expect(renamed.status).toBe(200);
    const added = await shop.createProduct({ name: 'Sitemap Pistol', category: 'Optics' });

    urls = await sitemapUrls();
    const products = [...urls.keys()].filter((url) => url.startsWith(`${PUBLIC_URL}/product/`));
    const live = (await shop.call<Array<{ slug: string }>>('GET', '/api/products?pageSize=100')).body;
    expect(products.sort()).toEqual(live.map(({ slug }) => `${PUBLIC_URL}/product/${slug}`).sort());
    expect(urls.has(`${PUBLIC_URL}/product/${removed.slug}`)).toBe(false);
    expect(urls.has(`${PUBLIC_URL}/product/${added.slug}`)).toBe(true);
    expect(urls.has(`${PUBLIC_URL}/category/Optics`)).toBe(true);
  });

  it('answers 404 with a JSON message for a sitemap file that does not exist', async () => {
    for (const path of ['/sitemaps/products-2.xml', '/sitemaps/products-0.xml', '/sitemaps/other.xml']) {
      const answer = await shop.call<{ message: string }>('GET', path);
      expect(answer.status, path).toBe(404);
      expect(answer.body.message, path).toBe('No such sitemap');
    }
  });
});
