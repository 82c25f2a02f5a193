import {
  PRODUCT_FACETS_API,
  PRODUCTS_API,
  SITE_SETTINGS_API,
  type Product,
  type ProductFacets,
} from '@shop/contracts';
import type { ServerAnswer } from '@shop/state/first-screen';
import { describe, expect, it, vi } from 'vitest';
import { testProduct } from '../testing/products';
import { FragmentUnavailable, type FragmentRequest, fragmentStatus, renderFragment } from './render-fragment';

// As the server build resolves it: the screens' metadata with its JSON-LD.
vi.mock('../shared/metadata/page-metadata', () => import('../shared/metadata/page-metadata.server'));

const ORIGIN = 'https://shop.example.com';

const glock = testProduct();
const ar15 = testProduct({
  _id: 'p2',
  name: 'AR-15 Sport',
  slug: 'ar-15-sport',
  category: 'Rifles',
  brand: 'Colt',
  price: 999.99,
});

const settings: ServerAnswer = {
  status: 200,
  ok: true,
  data: [{ _id: 's1', siteName: 'Test Armory', currency: '€', logo: '' }],
  headers: {},
};

const ok = (data: unknown, headers: Record<string, string> = {}): ServerAnswer => ({
  status: 200,
  ok: true,
  data,
  headers,
});
const notFound: ServerAnswer = { status: 404, ok: false, message: 'Product Not Found' };

const facets = (products: Product[]): ProductFacets => ({
  categories: [...new Set(products.map((p) => p.category))].map((value) => ({ value, count: 1 })),
  brands: [...new Set(products.map((p) => p.brand))].map((value) => ({ value, count: 1 })),
});

/**
 * The services as the render service's `read` sees them: an answer by path (with query); every path asked is
 * recorded. Lists answer by their `category`; anything else unknown is a 404.
 */
function services(products: Product[] = [glock, ar15]) {
  const asked: string[] = [];
  const read = async (path: string): Promise<ServerAnswer> => {
    asked.push(path);
    const url = new URL(path, 'http://api');
    if (path === SITE_SETTINGS_API) return settings;
    if (url.pathname === PRODUCTS_API) {
      const category = url.searchParams.get('category');
      const rows = products.filter((p) => !category || p.category === category);
      return ok(rows, { 'x-total-count': String(rows.length) });
    }
    if (url.pathname === PRODUCT_FACETS_API) return ok(facets(products));
    const slug = /^\/api\/products\/slug\/(.+)$/.exec(url.pathname)?.[1];
    const product = products.find((p) => p.slug === slug);
    return product ? ok(product) : notFound;
  };
  return { read, asked };
}

const request = (screen: string, route: string, url: string): FragmentRequest => ({
  screen,
  route,
  url,
  origin: ORIGIN,
});
const productPage = (slug: string) => request('ProductPage', '/product/:slug', `/product/${slug}`);
const categoryPage = (url: string) => request('CategoryPage', '/category/:category', url);

const VERSION = '1.2.3';
/** A render over the services' stand-in, or another `read`. */
const draw = (request: FragmentRequest, read = services().read) => renderFragment(request, read, VERSION);

/** The JSON-LD blocks of a render, parsed. */
const jsonLd = (html: string): unknown[] =>
  [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map(
    ([, text]) => JSON.parse(text!) as unknown,
  );

describe('renderFragment', () => {
  it("draws the home page with every product and its price, and the head's title, canonical and share tags", async () => {
    const { read, asked } = services();
    const fragment = await draw(request('HomePage', '/', '/'), read);
    expect(fragment.version).toBe(VERSION);
    expect(fragment.status).toBe(200);
    expect(fragment.html).toContain('Glock 19 Gen 5');
    expect(fragment.html).toContain('AR-15 Sport');
    // Prices in the site's currency, from the settings read.
    expect(fragment.html).toContain('€1,249.50');
    expect(fragment.html).toContain('€999.99');
    expect(fragment.html).not.toContain('Loading');

    expect(fragment.head.match(/<title>/g)).toHaveLength(1);
    expect(fragment.head).toContain('<title>Test Armory</title>');
    expect(fragment.head).toContain(`<link rel="canonical" href="${ORIGIN}/"/>`);
    expect(fragment.head).toContain('<meta property="og:title" content="Test Armory"/>');
    expect(fragment.head).toContain(`<meta property="og:url" content="${ORIGIN}/"/>`);
    expect(fragment.head).toContain('<meta property="og:site_name" content="Test Armory"/>');
    // The head holds only what belongs there: the screen's HTML starts after it.
    expect(fragment.html).not.toMatch(/^<(title|meta|link)\b/);
    expect(fragment.head).not.toContain('Featured Products');

    // The JSON-LD goes in the head too: the browser's code does not draw it, so it cannot stay in the screen.
    const structured = jsonLd(fragment.head);
    expect(structured.map((block) => (block as { '@type': string })['@type'])).toEqual([
      'WebSite',
      'Organization',
    ]);
    expect(jsonLd(fragment.html)).toEqual([]);
    expect(JSON.stringify(structured)).toContain(ORIGIN);

    expect(Object.keys(fragment.answers).sort()).toEqual([PRODUCTS_API, SITE_SETTINGS_API].sort());
    expect(fragment.answers[PRODUCTS_API]).toEqual(ok([glock, ar15], { 'x-total-count': '2' }));
    expect([...new Set(asked)].sort()).toEqual(Object.keys(fragment.answers).sort());
  });

  it("draws a product's page: its name, price, description, canonical and product JSON-LD", async () => {
    const fragment = await draw(productPage('ar-15-sport'));
    expect(fragment.status).toBe(200);
    expect(fragment.html).toContain('<h1');
    expect(fragment.html).toContain('AR-15 Sport');
    expect(fragment.html).toContain('€999.99');
    expect(fragment.head).toContain('<title>Product Page AR-15 Sport</title>');
    expect(fragment.head).toContain(`<link rel="canonical" href="${ORIGIN}/product/ar-15-sport"/>`);
    expect(fragment.head).toContain('<meta property="og:type" content="product"/>');
    expect(jsonLd(fragment.html)).toEqual([]);
    const structured = JSON.stringify(jsonLd(fragment.head));
    expect(structured).toContain('"@type":"Product"');
    expect(structured).toContain('"@type":"BreadcrumbList"');
    expect(structured).toContain('"price":"999.99"');
    expect(structured).toContain('AR-15 Sport');
    expect(Object.keys(fragment.answers)).toContain(`${PRODUCTS_API}/slug/ar-15-sport`);
  });

  it("keeps a product's own text that looks like a data block in the screen, as text", async () => {
    const forged = '<script type="application/ld+json">{"@type":"Forged"}</script>';
    const { read } = services([{ ...ar15, description: `Sharp. ${forged}` }]);
    const fragment = await draw(productPage('ar-15-sport'), read);
    expect(fragment.html).toContain('Sharp. &lt;script type=&quot;application/ld+json&quot;&gt;');
    expect(jsonLd(fragment.head).map((block) => (block as { '@type': string })['@type'])).toEqual([
      'Product',
      'BreadcrumbList',
    ]);
    expect(fragment.head).not.toContain('"@type":"Forged"}</script>');
  });

  it('answers 404 with "Product Not Found" for a slug the service does not know', async () => {
    const fragment = await draw(productPage('no-such-gun'));
    expect(fragment.status).toBe(404);
    expect(fragment.html).toContain('Product Not Found');
    expect(fragment.head).toContain('<meta name="robots" content="noindex"/>');
    expect(fragment.head).not.toContain('rel="canonical"');
    expect(fragment.answers[`${PRODUCTS_API}/slug/no-such-gun`]).toEqual(notFound);
  });

  const badSlug = () => draw(productPage('AR-15'));

  it('draws "Product Not Found" for a slug no product could have, without asking for it', async () => {
    const { read, asked } = services();
    const fragment = await draw(productPage('AR-15'), read);
    expect(fragment.html).toContain('Product Not Found');
    expect(fragment.head).toContain('<meta name="robots" content="noindex"/>');
    expect(asked).toEqual([SITE_SETTINGS_API]);
  });

  // The slug is never read, so no answer says 404: fragmentStatus checks the slug's pattern itself,
  // or the page would say "Product Not Found" with a 200 (a soft 404).
  it('answers 404 for a slug no product could have', async () => {
    expect((await badSlug()).status).toBe(404);
  });

  it('answers 404 for a category no product is in, but 200 for a filtered view of it', async () => {
    const empty = await draw(categoryPage('/category/Shotguns'));
    expect(empty.status).toBe(404);
    const filtered = await draw(categoryPage('/category/Shotguns?brand=Colt'));
    expect(filtered.status).toBe(200);
    const full = await draw(categoryPage('/category/Rifles'));
    expect(full.status).toBe(200);
    expect(full.html).toContain('AR-15 Sport');
    expect(full.html).not.toContain('Glock 19 Gen 5');
  });

  it('finds the reads a screen asks for (a results page: list and facets) and keeps an answer for each', async () => {
    const { read, asked } = services();
    const fragment = await draw(request('SearchPage', '/search', '/search?query=glock'), read);
    expect(fragment.status).toBe(200);
    const paths = Object.keys(fragment.answers);
    expect(paths.some((path) => path.startsWith(`${PRODUCTS_API}?`) && path.includes('query=glock'))).toBe(
      true,
    );
    expect(paths.some((path) => path.startsWith(PRODUCT_FACETS_API))).toBe(true);
    // Every read the render made is answered in the fragment: the browser will ask none of them again.
    for (const path of asked) expect(paths, path).toContain(path);
    // Each read asked once.
    expect(asked).toHaveLength(new Set(asked).size);
    expect(fragment.html).toContain('Glock 19 Gen 5');
  });

  it('rejects when a read is unavailable (the page draws that part in the browser)', async () => {
    const { read } = services();
    const failing = async (path: string) => {
      if (path.startsWith(`${PRODUCTS_API}/slug/`)) throw new FragmentUnavailable(`${path} answered 503`);
      return read(path);
    };
    const rendering = draw(productPage('ar-15-sport'), failing);
    await expect(rendering).rejects.toBeInstanceOf(FragmentUnavailable);
    await expect(rendering).rejects.toThrow('/api/products/slug/ar-15-sport answered 503');
  });

  it('refuses a screen it does not render', async () => {
    await expect(draw(request('CartPage', '/cart', '/cart'))).rejects.toThrow(/No screen named CartPage/);
  });

  it('draws with the default settings when the settings read is refused, and does not keep that answer', async () => {
    const { read } = services();
    const refusing = async (path: string) =>
      path === SITE_SETTINGS_API ? ({ status: 404, ok: false, message: 'Not Found' } as const) : read(path);
    const fragment = await draw(request('HomePage', '/', '/'), refusing);
    expect(fragment.status).toBe(200);
    expect(fragment.html).toContain('Glock 19 Gen 5');
    expect(Object.keys(fragment.answers)).toEqual([PRODUCTS_API]);
  });
});

describe('fragmentStatus', () => {
  const list = `${PRODUCTS_API}?category=Rifles&sort=newest&page=1&pageSize=12`;

  it('is 404 when any read but the settings answered 404', () => {
    expect(
      fragmentStatus(productPage('x'), {
        [SITE_SETTINGS_API]: { status: 404, ok: false, message: 'x' },
      }),
    ).toBe(200);
    expect(
      fragmentStatus(productPage('x'), {
        [SITE_SETTINGS_API]: settings,
        [`${PRODUCTS_API}/slug/x`]: notFound,
      }),
    ).toBe(404);
  });

  it('is 404 for an unfiltered category whose lists are all empty, else 200', () => {
    expect(fragmentStatus(categoryPage('/category/Rifles'), { [list]: ok([]) })).toBe(404);
    expect(fragmentStatus(categoryPage('/category/Rifles'), { [list]: ok([ar15]) })).toBe(200);
    expect(fragmentStatus(categoryPage('/category/Rifles?page=2'), { [list]: ok([]) })).toBe(200);
    expect(fragmentStatus(categoryPage('/category/Rifles'), {})).toBe(200);
    // An empty search is a page that says so, not a missing page.
    expect(fragmentStatus(request('SearchPage', '/search', '/search'), { [list]: ok([]) })).toBe(200);
  });
});
