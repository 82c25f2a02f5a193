import { get } from 'node:http';
import type { ConsoleMessage, Page } from '@playwright/test';
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
} from './fixtures';
import { switchFlag } from './support/flags';
import { createListing } from './support/listings';

/**
 * The catalogue's pages as a crawler, a link preview and a shopper without scripts get them: HTML that
 * holds the content and its metadata, rendered by the catalog remote's render service inside the shell's
 * layout (docs/decisions/0020), and taken over by the browser without a mismatch or a second read.
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

/** A product an admin adds to this run's category, with a seeded product's picture. */
function productOfThisRun(
  baseURL: string,
  fields: { name: string; description: string; price: number; countInStock: number },
): Promise<Product> {
  return createListing(baseURL, adminToken, { ...fields, brand: 'Acme Arms', category: CATEGORY });
}

/** A page as a client that runs no script gets it: status, headers and the HTML text. */
async function fetchPage(baseURL: string, path: string) {
  const response = await fetch(`${baseURL}${path}`, { headers: { Accept: 'text/html' } });
  return { status: response.status, headers: response.headers, html: await response.text() };
}

/** The attribute of the first tag matching `selector`-like pattern: `<link rel="canonical" href="…">`. */
function tagAttribute(html: string, tag: RegExp, attribute: string): string | undefined {
  const element = tag.exec(html)?.[0];
  if (!element) return undefined;
  const value = new RegExp(`\\b${attribute}="([^"]*)"`).exec(element)?.[1];
  return value
    ?.replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>');
}

const metaProperty = (html: string, property: string) =>
  tagAttribute(html, new RegExp(`<meta property="${property}"[^>]*>`), 'content');

/** Every JSON-LD block of the page, parsed (a block that is not JSON fails the test). */
function jsonLd(html: string): Array<Record<string, unknown>> {
  return [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map(
    ([, text]) => JSON.parse(text!) as Record<string, unknown>,
  );
}

const titleOf = (html: string) =>
  /<title>([\s\S]*?)<\/title>/
    .exec(html)?.[1]
    ?.replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"');

/** The content React rendered into #root (the layout and the screen), not the page's head or scripts. */
const rootOf = (html: string) =>
  /<div id="root">([\s\S]*)<\/div><script type="application\/json"/.exec(html)?.[1] ?? '';

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

/** Console messages that say React could not take the server's HTML over (or anything else went wrong). */
function watchProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message: ConsoleMessage) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  return problems;
}

test.describe('the browser takes a rendered page over', () => {
  test('a product page hydrates without a mismatch or a second read, and its button works', async ({
    page,
  }) => {
    const problems = watchProblems(page);
    const reads: string[] = [];
    page.on('request', (request) => {
      const { pathname } = new URL(request.url());
      if (pathname.startsWith('/api/products') || pathname.startsWith('/api/data')) reads.push(pathname);
    });
    await page.goto(`/product/${product.slug}`);
    await expect(page.getByRole('heading', { level: 1, name: product.name })).toBeVisible();
    // Once the catalog's code has taken the HTML over, the button is live: it adds and goes to the cart.
    // Until then it says it cannot be pressed yet (a press would be lost), as the server drew it.
    expect(rootOf(await (await fetch(page.url(), { headers: { Accept: 'text/html' } })).text())).toMatch(
      /<button[^>]*disabled=""[^>]*>Add to Cart<\/button>/,
    );
    await page.getByRole('button', { name: 'Add to Cart' }).click();
    await expect(page).toHaveURL(/\/cart$/);
    await expect(page.getByRole('heading', { name: 'Shopping Cart' })).toBeVisible();
    expect(reads.filter((path) => path.startsWith('/api/products/slug/'))).toEqual([]);
    expect(reads.filter((path) => path === '/api/data/all-data')).toEqual([]);
    expect(problems).toEqual([]);
  });

  test('what only the browser knows (the stored cart) shows once the page is taken over, without a mismatch', async ({
    page,
  }) => {
    const problems = watchProblems(page);
    await page.goto(`/product/${product.slug}`);
    await page.getByRole('button', { name: 'Add to Cart' }).click();
    await expect(page).toHaveURL(/\/cart$/);
    // A fresh server-rendered page: the server knows no cart, the browser shows it after hydration.
    await page.goto('/');
    await expect(page.getByTestId('cart-badge')).toHaveText('1');
    await expect(page.getByRole('heading', { name: 'Featured Products', exact: true })).toBeVisible();
    expect(problems).toEqual([]);
  });

  test("a rendered page paints styled before the shop's code runs, dark for a shopper who chose dark", async ({
    browser,
    baseURL,
  }) => {
    // The system prefers light; the shopper chose dark on an earlier visit.
    const context = await browser.newContext({ baseURL, colorScheme: 'light' });
    await context.addInitScript(() => localStorage.setItem('mode', JSON.stringify('dark')));
    // No script file loads: only the page's inline start script runs, as in the moment before the code
    // arrives on a slow line.
    await context.route(/\.js(\?|$)/, (route) => route.abort());
    const page = await context.newPage();
    await page.goto(`/product/${product.slug}`);
    await expect(page.getByRole('heading', { level: 1, name: product.name })).toBeVisible();
    expect(await page.evaluate(() => document.body.dataset['theme'])).toBeUndefined();
    // The shell's and the product screen's stylesheets are linked by the page and applied.
    const applied = await page.evaluate(() =>
      [...document.styleSheets]
        .filter((sheet) => sheet.cssRules.length > 0)
        .map((sheet) => new URL(sheet.href ?? 'inline:', location.href).pathname),
    );
    expect(applied).toContainEqual(expect.stringMatching(/^\/[\d.]+\/[\w.]+\.css$/));
    expect(applied).toContainEqual(
      expect.stringMatching(/^\/remotes\/catalog\/[^/]+\/__federation_expose_ProductPage\.\w+\.css$/),
    );
    // The start script marked <html> with the shopper's mode, and the page is dark.
    expect(await page.evaluate(() => document.documentElement.dataset['theme'])).toBe('dark');
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe(
      'rgb(18, 20, 23)',
    );
    await context.close();
  });

  test("a rendered page's first picture comes before its code: no script file or remotes manifest is asked for until it has arrived", async ({
    page,
  }) => {
    const problems = watchProblems(page);
    // The pictures are held back (as a slow line would) until the test lets them through.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const pictures: string[] = [];
    await page.route('**/api/media/**', async (route) => {
      pictures.push(route.request().url());
      await held;
      await route.continue();
    });

    await page.goto(`/product/${product.slug}`, { waitUntil: 'domcontentloaded' });
    await expect(page.getByRole('heading', { level: 1, name: product.name })).toBeVisible();
    await expect.poll(() => pictures.length).toBeGreaterThan(0);
    // Held a second: a script file in the HTML would have run before DOMContentLoaded, one the start script
    // added at once would be on its way.
    await page.waitForTimeout(1_000);
    const releasedAt = await page.evaluate(() => performance.now());
    release();
    // Once the picture is in, the code comes and takes the page over.
    await expect(page.getByRole('button', { name: 'Add to Cart' })).toBeEnabled();

    // When each script file was asked for, on the page's own clock: not before the picture was let
    // through, or before the start script's longest wait for it (2.5 s after the HTML was parsed,
    // PICTURES_WAIT_MS in shell/src/first-screen/page-code.ts) on a machine slower than the second held.
    const { parsedAt, scripts } = await page.evaluate(() => ({
      parsedAt: (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming)
        .domContentLoadedEventStart,
      scripts: performance
        .getEntriesByType('resource')
        // The remotes manifest too: its fetch is main-thread work the first paint would wait for.
        .filter((entry) => /\.js$|^\/remotes\.json$/.test(new URL(entry.name).pathname))
        .map((entry) => ({ path: new URL(entry.name).pathname, at: Math.round(entry.startTime) })),
    }));
    expect(scripts.map((script) => script.path)).toContainEqual(
      expect.stringMatching(/^\/[\d.]+\/main\.\w+\.js$/),
    );
    expect(scripts.map((script) => script.path)).toContain('/remotes.json');
    const earliest = Math.min(releasedAt, parsedAt + 2_500);
    expect(
      scripts.filter((script) => script.at < earliest - 1),
      `asked for before ${earliest} ms`,
    ).toEqual([]);
    expect(problems).toEqual([]);
  });

  test('browsing by links and searching work with scripts turned off', async ({ browser, baseURL }) => {
    const context = await browser.newContext({ javaScriptEnabled: false, baseURL });
    const page = await context.newPage();
    await page.goto('/');
    await expect(page.getByRole('heading', { name: 'Featured Products', exact: true })).toBeVisible();
    await page.getByRole('link', { name: product.name, exact: true }).first().click();
    await expect(page).toHaveURL(new RegExp(`/product/${product.slug}$`));
    await expect(page.getByRole('heading', { level: 1, name: product.name })).toBeVisible();
    await expect(page.getByText('In Stock').first()).toBeVisible();

    const search = page.getByRole('search');
    await search.getByRole('searchbox').fill(`Carbine ${RUN}`);
    await search.getByRole('button', { name: 'Search' }).click();
    await expect(page).toHaveURL(/\/search\?query=/);
    await expect(
      page.getByRole('heading', { level: 1, name: `Search results for “Carbine ${RUN}”` }),
    ).toBeVisible();
    await page.getByRole('link', { name: CATEGORY }).first().click();
    await expect(page.getByRole('link', { name: product.name, exact: true }).first()).toBeVisible();
    await context.close();
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
  await stack.stopPart('mf-catalog');
  try {
    const page = await fetchPage(baseURL!, `/product/${product.slug}`);
    expect(page.status).toBe(200);
    // The shell's layout is there; the screen is left to the browser (which reports the remote unavailable).
    expect(rootOf(page.html)).toContain('Skip to main content');
    expect(rootOf(page.html)).not.toContain(product.name);
  } finally {
    await stack.startPart('mf-catalog');
  }
  await expect
    .poll(async () =>
      rootOf((await fetchPage(baseURL!, `/product/${product.slug}`)).html).includes(product.name),
    )
    .toBe(true);
});
