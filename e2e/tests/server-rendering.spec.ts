import { get } from 'node:http';
import type { Product } from '@shop/contracts';
import {
  RENDER_CACHE_FRESH_MS,
  SEEDED_ADMIN,
  callApi,
  expect,
  expectTakenOver,
  signInThroughApi,
  signUpThroughApi,
  test,
  whilePartDown,
} from './fixtures';
import { switchFlag } from './support/flags';
import {
  fetchPage,
  jsonLd,
  metaProperty,
  productIn,
  rootOf,
  tagAttribute,
  titleOf,
  watchProblems,
} from './support/rendered-pages';

/**
 * The catalogue's pages as a crawler, a link preview and a shopper without scripts get them: HTML that
 * holds the content and its metadata, rendered by the catalog remote's render service inside the shell's
 * layout (docs/decisions/0020); and such a page when a read is slow, the catalogue changes or the catalog
 * is down. The browser taking a rendered page over is in server-rendering-takeover.spec.ts.
 */

const RUN = Date.now().toString(36);
const CATEGORY = `Rendered ${RUN}`;

let adminToken: string;
let product: Product;

test.beforeAll(async ({ stack }) => {
  adminToken = (await signInThroughApi(stack.url, SEEDED_ADMIN.email, SEEDED_ADMIN.password)).token;
  product = await productOfThisRun(stack.url, {
    name: `Rendered Carbine ${RUN}`,
    description: `A carbine made by the server rendering test ${RUN}, with <angle> & "quoted" words.`,
    price: 1234.5,
    countInStock: 4,
  });
});

/** A product an admin adds to this run's category. */
const productOfThisRun = (baseURL: string, fields: Parameters<typeof productIn>[3]) =>
  productIn(CATEGORY, baseURL, adminToken, fields);

test.describe('pages fetched without running a script', () => {
  test('a product page holds the product, its title, canonical URL, share tags and a valid Product', async ({
    baseURL,
  }) => {
    const page = await fetchPage(baseURL!, `/product/${product.slug}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toMatch(/script-src 'self' 'sha256-/);
    // Compressed as the client accepts it, through the static server and the gateway.
    expect(page.headers.get('content-encoding')).toMatch(/^(br|gzip)$/);
    expect(titleOf(page.html)).toBe(`Product Page ${product.name}`);
    const root = rootOf(page.html);
    expect(root).toContain(`<h1`);
    expect(root).toContain(product.name);
    expect(root).toContain('$1,234.50');
    expect(root).toContain('In Stock');
    // The picture at the widths the media service makes, for the browser to choose from.
    expect(root).toMatch(/<img[^>]*srcset="[^"]*\?w=\d+ \d+w/i);
    expect(root).toContain('&lt;angle&gt; &amp; &quot;quoted&quot;');

    const url = `${baseURL}/product/${product.slug}`;
    expect(tagAttribute(page.html, /<link rel="canonical"[^>]*>/, 'href')).toBe(url);
    expect(metaProperty(page.html, 'og:type')).toBe('product');
    expect(metaProperty(page.html, 'og:title')).toBe(product.name);
    expect(metaProperty(page.html, 'og:url')).toBe(url);
    // The product's first picture, at a share size.
    expect(metaProperty(page.html, 'og:image')).toMatch(
      new RegExp(`^${baseURL}${product.image[0]}\\?w=\\d+$`),
    );
    expect(tagAttribute(page.html, /<meta name="twitter:card"[^>]*>/, 'content')).toBe('summary_large_image');

    const blocks = jsonLd(page.html);
    const described = blocks.find((block) => block['@type'] === 'Product');
    expect(described).toMatchObject({
      '@context': 'https://schema.org',
      name: product.name,
      url,
      offers: {
        '@type': 'Offer',
        price: '1234.50',
        priceCurrency: expect.any(String),
        availability: 'https://schema.org/InStock',
      },
    });
    const crumbs = blocks.find((block) => block['@type'] === 'BreadcrumbList') as
      { itemListElement: Array<{ name: string; item: string }> } | undefined;
    expect(crumbs?.itemListElement.map((crumb) => crumb.name).slice(1)).toEqual([CATEGORY, product.name]);
  });

  test('home, a category and a search hold their products as links, with their own titles and canonicals', async ({
    baseURL,
  }) => {
    const home = await fetchPage(baseURL!, '/');
    expect(home.status).toBe(200);
    expect(rootOf(home.html)).toContain(`href="/product/${product.slug}"`);
    expect(tagAttribute(home.html, /<link rel="canonical"[^>]*>/, 'href')).toBe(`${baseURL}/`);
    const site = jsonLd(home.html).find((block) => block['@type'] === 'WebSite');
    expect(site).toMatchObject({
      url: `${baseURL}/`,
      potentialAction: {
        '@type': 'SearchAction',
        target: { urlTemplate: `${baseURL}/search?query={query}` },
      },
    });
    expect(jsonLd(home.html).some((block) => block['@type'] === 'Organization')).toBe(true);

    const category = await fetchPage(baseURL!, `/category/${encodeURIComponent(CATEGORY)}?sort=newest`);
    expect(category.status).toBe(200);
    expect(titleOf(category.html)).toBe(`Category: ${CATEGORY}`);
    expect(rootOf(category.html)).toContain(`href="/product/${product.slug}"`);
    // Its order and filters all show the one category: one canonical URL for them all.
    expect(tagAttribute(category.html, /<link rel="canonical"[^>]*>/, 'href')).toBe(
      `${baseURL}/category/${encodeURIComponent(CATEGORY)}`,
    );

    const words = `Rendered Carbine ${RUN}`;
    const search = await fetchPage(baseURL!, `/search?query=${encodeURIComponent(words)}`);
    expect(search.status).toBe(200);
    expect(titleOf(search.html)).toBe(`Search results for “${words}”`);
    expect(rootOf(search.html)).toContain(`href="/product/${product.slug}"`);
    // A search narrowed by a filter is not indexed.
    const narrowed = await fetchPage(
      baseURL!,
      `/search?query=${encodeURIComponent(words)}&brand=Acme%20Arms`,
    );
    expect(narrowed.html).toMatch(/<meta name="robots" content="noindex"/);
    expect(narrowed.html).not.toMatch(/<link rel="canonical"/);
  });

  test('unknown products, categories and paths answer 404 with the page a shopper sees, and so does a removed product', async ({
    baseURL,
  }) => {
    const unknown = await fetchPage(baseURL!, `/product/no-such-product-${RUN}`);
    expect(unknown.status).toBe(404);
    expect(rootOf(unknown.html)).toContain('Product Not Found');
    expect(unknown.html).toMatch(/<meta name="robots" content="noindex"/);

    // A slug no product could have (capitals) is not even asked for; still a 404.
    const malformed = await fetchPage(baseURL!, '/product/AR-15');
    expect(malformed.status).toBe(404);
    expect(rootOf(malformed.html)).toContain('Product Not Found');

    const noCategory = await fetchPage(baseURL!, `/category/${encodeURIComponent(`Nothing ${RUN}`)}`);
    expect(noCategory.status).toBe(404);

    const noPage = await fetchPage(baseURL!, `/no-such-page-${RUN}`);
    expect(noPage.status).toBe(404);
    expect(noPage.headers.get('x-robots-tag')).toBe('noindex');

    const doomed = await productOfThisRun(baseURL!, {
      name: `Removed Rifle ${RUN}`,
      description: 'Removed by the server rendering test.',
      price: 10,
      countInStock: 1,
    });
    expect((await fetchPage(baseURL!, `/product/${doomed.slug}`)).status).toBe(200);
    await callApi(baseURL!, 'DELETE', `/api/products/delete/${doomed._id}`, adminToken);
    await expect
      .poll(async () => (await fetchPage(baseURL!, `/product/${doomed.slug}`)).status, { timeout: 10_000 })
      .toBe(404);
  });

  test('a browser that has the page is answered 304 through the gateway while the page is the same', async ({
    baseURL,
  }) => {
    const path = `${baseURL}/product/${product.slug}`;
    const first = await fetch(path, { headers: { Accept: 'text/html' } });
    const tag = first.headers.get('etag');
    expect(tag).toMatch(/^W\/"[\w-]+"$/);
    expect(first.headers.get('cache-control')).toBe('no-cache');
    await first.text();
    const again = await fetch(path, { headers: { Accept: 'text/html', 'If-None-Match': tag! } });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(tag);
    expect(await again.text()).toBe('');
    // A browser replaces the stored page's headers with the 304's: the page's policy comes with it, not the
    // gateway's locked-down one.
    expect(again.headers.get('content-security-policy')).toBe(first.headers.get('content-security-policy'));
  });

  test('a page the browser revalidates (304) runs as before: its policy still lets its code run', async ({
    page,
  }) => {
    // What the browser's network stack sent: a revalidation carries the page's ETag.
    const conditional: Array<Promise<string | undefined>> = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'document')
        conditional.push(request.allHeaders().then((headers) => headers['if-none-match']));
    });
    // Each page is opened twice: the second time the browser has it (no-cache: stored, asked again) and sends
    // its ETag; the page server answers 304 and the browser shows the stored page under the 304's headers.
    const productButton = page.getByRole('button', { name: 'Add to Cart' });
    for (const visit of [1, 2]) {
      await page.goto(`/product/${product.slug}`);
      // The button is drawn disabled on the server and enabled by the code once it has taken the page over.
      await expect(productButton, `product page, visit ${visit}`).toBeEnabled();
      await page.goto('/cart');
      // The cart is drawn by the code only.
      await expect(
        page.getByRole('heading', { name: 'Shopping Cart' }),
        `cart, visit ${visit}`,
      ).toBeVisible();
    }
    // The fixture fails the test on any policy violation.
    expect((await Promise.all(conditional)).filter(Boolean)).toHaveLength(2);
  });

  test('cart, checkout and account pages stay drawn in the browser and are not indexed', async ({
    baseURL,
  }) => {
    for (const path of ['/cart', '/shipping', '/signin', '/profile']) {
      const page = await fetchPage(baseURL!, path);
      expect(page.status, path).toBe(200);
      expect(page.headers.get('x-robots-tag'), path).toBe('noindex');
      expect(page.html, path).toMatch(/<div id="?root"?><\/div>/);
    }
  });
});

/** A page through the gateway as it arrives, in the parts the network brought (no compression, to read them). */
function pageInParts(baseURL: string, path: string) {
  return new Promise<{ status: number; renderCache: string | undefined; parts: string[] }>(
    (resolve, reject) => {
      get(
        `${baseURL}${path}`,
        { headers: { Accept: 'text/html', 'Accept-Encoding': 'identity' } },
        (response) => {
          const parts: string[] = [];
          response.setEncoding('utf8');
          response.on('data', (part: string) => parts.push(part));
          response.on('end', () =>
            resolve({
              status: response.statusCode ?? 0,
              renderCache: response.headers['x-render-cache'] as string | undefined,
              parts,
            }),
          );
        },
      ).on('error', reject);
    },
  );
}

test('a catalogue read slowed by a fault flag delays only its part: the layout arrives first, the product after it in the same answer, and the browser takes the page over', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const problems = watchProblems(page);
  // A page of its own each time: the render service reads the product (slowed) instead of its memory.
  let asked = 0;
  const fresh = () => `/product/${product.slug}?slowed=${RUN}-${(asked += 1)}`;
  // The page server draws a streamed layout with the site settings of a render it has had.
  expect((await fetchPage(baseURL!, fresh())).status).toBe(200);
  await switchFlag(baseURL!, adminToken, 'catalogReadDelay', '750ms');
  try {
    // products follows the switch within its flag poll; from then on the render is slower than the layout.
    let streamed: Awaited<ReturnType<typeof pageInParts>> | undefined;
    await expect
      .poll(async () => (streamed = await pageInParts(baseURL!, fresh())).renderCache, {
        timeout: 30_000,
        message: 'a page sent before its slowed render came',
      })
      .toBe('streamed');
    expect(streamed!.status).toBe(200);
    // The layout (its search box, its footer) came in parts of its own, before the product's.
    const { parts } = streamed!;
    const heading = `>${product.name}</h1>`;
    const productFrom = parts.findIndex((_part, index) =>
      parts
        .slice(0, index + 1)
        .join('')
        .includes(heading),
    );
    expect(productFrom, 'the part that completed the product heading').toBeGreaterThan(0);
    const layout = parts.slice(0, productFrom).join('');
    expect(layout).toContain('role="search"');
    expect(layout).toContain('<footer');
    expect(layout).not.toContain(product.name);

    // A browser gets the same page: the product in the layout, its title moved into the head, taken over
    // without a mismatch.
    await page.goto(fresh());
    await expect(page.getByRole('heading', { level: 1, name: product.name })).toBeVisible();
    await expect(page).toHaveTitle(`Product Page ${product.name}`);
    await expectTakenOver(page);
    await page.getByRole('button', { name: 'Add to Cart' }).click();
    await expect(page).toHaveURL(/\/cart$/);
    expect(problems).toEqual([]);
  } finally {
    await switchFlag(baseURL!, adminToken, 'catalogReadDelay', 'off');
  }
});

test("a rendered page is kept until the catalogue changes: an admin's edit and an order's stock show on the next fetch", async ({
  baseURL,
}) => {
  const kept = await productOfThisRun(baseURL!, {
    name: `Kept Pistol ${RUN}`,
    description: 'Rendered once, kept, and rendered again when it changes.',
    price: 321,
    countInStock: 1,
  });
  const path = `/product/${kept.slug}`;
  const fetched = async () => {
    const page = await fetchPage(baseURL!, path);
    return { cache: page.headers.get('x-render-cache'), root: rootOf(page.html) };
  };

  // Asked again, the page comes from the render service's memory (once it follows the changes).
  await expect.poll(async () => (await fetched()).cache, { timeout: 10_000 }).toBe('hit');
  const before = await fetched();
  expect(before).toMatchObject({ cache: 'hit' });
  expect(before.root).toContain('321.00');
  expect(before.root).toContain('In Stock');

  // Without the events, the kept page would be served as it is for RENDER_CACHE_FRESH_MS: only a change's
  // own event can make the new page show within half of it.
  const { _id: id, rating: _rating, numReviews: _reviews, ...input } = kept;
  await callApi<Product>(baseURL!, 'POST', `/api/products/update/${id}`, adminToken, {
    ...input,
    price: 345,
  });
  await expect
    .poll(async () => (await fetched()).root.includes('345.00'), { timeout: RENDER_CACHE_FRESH_MS / 2 })
    .toBe(true);
  await expect.poll(async () => (await fetched()).cache).toBe('hit');

  // An order takes the last one: stock changes raise no admin event, only the catalogue's announcement.
  const shopper = await signUpThroughApi(baseURL!);
  await callApi(baseURL!, 'POST', '/api/orders', shopper.token, {
    orderItems: [{ _id: id, quantity: 1 }],
    shippingAddress: {
      fullName: 'Kept Shopper',
      address: '1 Road',
      city: 'Reno',
      country: 'Chile',
      phoneNumber: '12345678',
    },
    paymentMethod: 'cashapp',
  });
  await expect
    .poll(async () => (await fetched()).root.includes('Sold Out'), { timeout: RENDER_CACHE_FRESH_MS / 2 })
    .toBe(true);
});

test('a catalog that is down costs only its part: the page still answers, with the layout', async ({
  stack,
  baseURL,
}) => {
  await whilePartDown(stack, 'mf-catalog', async () => {
    const page = await fetchPage(baseURL!, `/product/${product.slug}`);
    expect(page.status).toBe(200);
    // The shell's layout is there; the screen is left to the browser (which reports the remote unavailable).
    expect(rootOf(page.html)).toContain('Skip to main content');
    expect(rootOf(page.html)).not.toContain(product.name);
  });
  await expect
    .poll(async () =>
      rootOf((await fetchPage(baseURL!, `/product/${product.slug}`)).html).includes(product.name),
    )
    .toBe(true);
});
