import { buildCatalogVariant, frontEndFailuresOf, productCreatedNow } from './front-end-builds';
import { expect, openProductPage, productCards, test } from './fixtures';

/** The home page as it arrives, before any script runs: what the page server rendered. */
async function servedHome(baseURL: string): Promise<string> {
  return (await fetch(`${baseURL}/`, { headers: { Accept: 'text/html' } })).text();
}

/** The versions of the catalog remote whose files this page asked for. */
function catalogVersionsAskedFor(requests: string[]): Set<string> {
  const versions = requests.map((url) => /\/remotes\/catalog\/([^/]+)\//.exec(new URL(url).pathname)?.[1]);
  return new Set(versions.filter((version): version is string => version !== undefined));
}

test('two versions of the catalog are served side by side, and remotes.json switches between them and back while a shopper shops', async ({
  page,
  stack,
  requests,
  consoleProblems,
}) => {
  test.setTimeout(300_000);
  const fresh = await productCreatedNow(stack.url, 'Swap');
  const freshCard = () => productCards(page).filter({ hasText: fresh.name });
  const failures = frontEndFailuresOf(page);
  // A rendered page's code takes it over after its first pictures: until then its links are plain links, and a
  // click loads a new page (drawn by whichever version remotes.json names by then), not the page's next screen.
  const takenOver = () =>
    expect(productCards(page).getByRole('button', { name: 'Add to Cart' }).first()).toBeEnabled();
  // The shell's own script files (the remotes' come and go as the federation runtime loads their chunks),
  // read once the page's code has taken it over.
  const shellScripts = async () => {
    await takenOver();
    return page
      .locator('script[src]')
      .evaluateAll((nodes) =>
        nodes
          .map((n) => new URL(n.getAttribute('src')!, location.href).pathname)
          .filter((path) => !path.startsWith('/remotes/')),
      );
  };
  const cartLines = () =>
    page.evaluate(() => (JSON.parse(localStorage.getItem('cartItems') ?? '[]') as unknown[]).length);

  // The shopper arrives on the version in production and puts a product in the cart.
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Featured Products', exact: true })).toBeVisible();
  const [current] = catalogVersionsAskedFor(requests);
  expect(current, 'the catalog is loaded from a versioned path').toMatch(/^\d+\.\d+\.\d+/);
  const scriptsBefore = await shellScripts();
  expect(scriptsBefore, "the shell's entry script").toEqual([expect.stringMatching(/\/main\.\w+\.js$/)]);
  await freshCard().getByRole('button', { name: 'Add to Cart' }).click();
  await expect.poll(cartLines).toBe(1);

  const next = await buildCatalogVariant(`${current}-next.1`, (source) => {
    expect(source).toContain('Featured Products');
    return source.replace('Featured Products', 'Featured Products: new arrivals');
  });
  try {
    // Publish: the new version is served beside the current one, and nothing uses it yet.
    expect(await stack.publish('mf-catalog', next.dist)).toBe(next.version);
    // Point: remotes.json names the new version, here between the server's render of the page and its
    // code's read of remotes.json (held until then; later reads pass at once). The page takes its HTML over with the version that drew
    // it (no mismatch: the fixture fails the test on one) and keeps it for the rest of its life: its next
    // screens still come from it, and nothing mixes.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/remotes.json', async (route) => {
      await held;
      await route.continue();
    });
    // The render service has the home page in memory (the fresh product changed it), so the reload is
    // rendered on the server: a render that failed would leave the catalog to the browser, which then rightly
    // takes the version remotes.json names (a burner run found exactly that).
    const renderCache = async () => {
      const response = await fetch(`${stack.url}/`, { headers: { Accept: 'text/html' } });
      await response.text();
      return response.headers.get('x-render-cache');
    };
    await expect
      .poll(renderCache, { timeout: 30_000, message: "the home page in the render service's memory" })
      .toBe('hit');
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Featured Products', exact: true })).toBeVisible();
    await expect(page.locator('html'), 'the page the server drew with the current version').toHaveAttribute(
      'data-rendered',
      `catalog@${current}`,
    );
    stack.pointRemotes({ catalog: next.version });
    requests.length = 0;
    release();
    // Its next screen is this page's only once its code has taken it over (a burner run clicked before that).
    await takenOver();
    await openProductPage(page, freshCard());
    await expect(page.getByRole('button', { name: 'Add to Cart' })).toBeVisible();
    expect(catalogVersionsAskedFor(requests)).toEqual(new Set([current]));

    // The next page load is the new version, with the shell untouched and the cart kept.
    requests.length = 0;
    await page.goto('/');
    await expect(page.getByRole('heading', { name: 'Featured Products: new arrivals' })).toBeVisible();
    await takenOver();
    expect(catalogVersionsAskedFor(requests)).toEqual(new Set([next.version]));
    // Rendered on the server by the new version's render service, the shell's page server untouched: the
    // HTML that arrives already holds the new heading, and says which version drew it.
    const switched = await servedHome(stack.url);
    expect(switched).toContain('Featured Products: new arrivals');
    expect(switched).toContain(`"remotes":{"catalog":"${next.version}"}`);
    expect(await shellScripts()).toEqual(scriptsBefore);
    expect(await cartLines()).toBe(1);
    const search = page.getByRole('search').getByRole('searchbox');
    await search.fill(fresh.name);
    await search.press('Enter');
    await expect(page).toHaveURL(/\/search\?query=/);
    await expect(freshCard()).toBeVisible();

    // Roll back: point remotes.json at the earlier version again. The open page goes on with the version it
    // started with, which stays served until it is retired.
    stack.pointRemotes({ catalog: current! });
    requests.length = 0;
    await openProductPage(page, freshCard());
    await expect(page.getByRole('button', { name: 'Add to Cart' })).toBeVisible();
    expect(catalogVersionsAskedFor(requests)).toEqual(new Set([next.version]));
    await page
      .getByRole('navigation', { name: 'Account and cart' })
      .getByRole('link', { name: /^Cart/ })
      .click();
    await expect(page.getByRole('heading', { name: 'Shopping Cart' })).toBeVisible();
    requests.length = 0;
    await page.goto('/');
    await expect(page.getByRole('heading', { name: 'Featured Products', exact: true })).toBeVisible();
    await takenOver();
    expect(catalogVersionsAskedFor(requests)).toEqual(new Set([current]));
    const rolledBack = await servedHome(stack.url);
    expect(rolledBack).not.toContain('new arrivals');
    expect(rolledBack).toContain(`"remotes":{"catalog":"${current}"}`);

    expect(failures, 'nothing failed to load at any step').toEqual([]);
    expect(consoleProblems.map((message) => message.text())).toEqual([]);
  } finally {
    // Back to the stack as the other tests expect it: the repository's own build, named in remotes.json.
    await stack.stopPart('mf-catalog');
    await stack.startPart('mf-catalog');
    next.remove();
  }
});
