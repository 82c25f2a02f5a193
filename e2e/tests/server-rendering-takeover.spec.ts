import type { Product } from '@shop/contracts';
import { SEEDED_ADMIN, expect, signInThroughApi, test } from './fixtures';
import { productIn, rootOf, watchProblems } from './support/rendered-pages';

/**
 * A page the server rendered, taken over by the browser (docs/decisions/0020): without a mismatch or a
 * second read, with what only the browser knows, styled before the shop's code runs, its first picture
 * before its code; and the same pages browsed with scripts turned off.
 */

const RUN = Date.now().toString(36);
const CATEGORY = `Taken over ${RUN}`;

let product: Product;

test.beforeAll(async ({ stack }) => {
  const { token } = await signInThroughApi(stack.url, SEEDED_ADMIN.email, SEEDED_ADMIN.password);
  product = await productIn(CATEGORY, stack.url, token, {
    name: `Rendered Carbine ${RUN}`,
    description: `A carbine made by the server rendering test ${RUN}, with <angle> & "quoted" words.`,
    price: 1234.5,
    countInStock: 4,
  });
});

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
