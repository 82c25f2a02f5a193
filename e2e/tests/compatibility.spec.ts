import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import type { Product, UserInfo } from '@shop/contracts';
import { frontEndFailuresOf, previousReleaseBuild, productCreatedNow } from './front-end-builds';
import {
  SEEDED_ADMIN,
  expect,
  openProductPage,
  productCards,
  signInThroughApi,
  startSignedIn,
  test,
} from './fixtures';

/**
 * Parts are deployed at different times, so the shell of one release meets the remotes of another. These
 * tests run the previous release of each side (built from git history, see releases.json) against the
 * current other side, through the gateway, as a shopper would use them.
 */

let admin: UserInfo;

test.beforeAll(async ({ stack }) => {
  admin = await signInThroughApi(stack.url, SEEDED_ADMIN.email, SEEDED_ADMIN.password);
});

/**
 * Home (catalog), the page of a product created just now (catalog), the cart (checkout): the screens of both
 * shopper remotes.
 */
async function shopAcrossRemotes(page: Page, product: Product): Promise<void> {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Featured Products', exact: true })).toBeVisible();
  const card = productCards(page).filter({ hasText: product.name });
  await card.getByRole('button', { name: 'Add to Cart' }).click();
  await openProductPage(page, card);
  await expect(page.getByRole('button', { name: 'Add to Cart' })).toBeVisible();
  await page
    .getByRole('navigation', { name: 'Account and cart' })
    .getByRole('link', { name: /^Cart/ })
    .click();
  await expect(page.getByRole('heading', { name: 'Shopping Cart' })).toBeVisible();
  await expect(page.getByRole('heading', { name: /^Subtotal \(1 item/ })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Proceed to Checkout' })).toBeEnabled();
}

/** Two screens of the admin remote, as an admin: the product list finds the product, its edit form opens. */
async function adminAcrossScreens(page: Page, product: Product): Promise<void> {
  await page.goto(`/all-products?q=${encodeURIComponent(product.name)}`);
  await expect(page.getByRole('heading', { level: 1, name: 'All Products' })).toBeVisible();
  await page.getByRole('link', { name: `Edit ${product.name}` }).click();
  await expect(page).toHaveURL(new RegExp(`/update/${product._id}$`));
  await expect(page.getByLabel('Name')).toHaveValue(product.name);
}

/** What remotes.json names for a remote, fetched as the shell fetches it: that remote's remoteEntry.js. */
async function servedEntryOf(baseURL: string, remote: string): Promise<string> {
  const manifest = (await (await fetch(`${baseURL}/remotes.json`)).json()) as {
    remotes: Record<string, { url: string }>;
  };
  const entryUrl = new URL('remoteEntry.js', new URL(manifest.remotes[remote]!.url, baseURL)).href;
  return (await fetch(entryUrl)).text();
}

test('the current shell runs the previous release of the catalog, checkout and admin remotes', async ({
  page,
  stack,
  baseURL,
  consoleProblems,
}) => {
  test.setTimeout(900_000);
  // One install from the release's own lockfile, then the builds side by side (cached per commit).
  const [catalog, checkout, adminRemote] = await Promise.all([
    previousReleaseBuild('mf-catalog'),
    previousReleaseBuild('mf-checkout'),
    previousReleaseBuild('mf-admin'),
  ]);
  const failures = frontEndFailuresOf(page);
  try {
    await stack.stopPart('mf-catalog');
    await stack.startPart('mf-catalog', { dir: catalog.dist });
    await stack.stopPart('mf-checkout');
    await stack.startPart('mf-checkout', { dir: checkout.dist });
    await stack.stopPart('mf-admin');
    await stack.startPart('mf-admin', { dir: adminRemote.dist });

    const product = await productCreatedNow(baseURL!, 'Compatibility');
    await shopAcrossRemotes(page, product);
    await startSignedIn(page, admin);
    await adminAcrossScreens(page, product);

    // What the gateway served under the version remotes.json names is that previous build.
    for (const [remote, build] of [
      ['catalog', catalog],
      ['checkout', checkout],
      ['admin', adminRemote],
    ] as const) {
      expect(await servedEntryOf(baseURL!, remote)).toBe(
        readFileSync(join(build.dist, 'remoteEntry.js'), 'utf8'),
      );
    }
    // That release has no render service: the page server renders the shell's layout and leaves the
    // catalog's part to the browser (which the journey above went through), never failing the page.
    const served = await (await fetch(`${baseURL}/`, { headers: { Accept: 'text/html' } })).text();
    expect(served).toContain('Skip to main content');
    expect(served).not.toContain('Featured Products');
    expect(failures).toEqual([]);
    expect(consoleProblems.map((message) => message.text())).toEqual([]);
  } finally {
    for (const part of ['mf-catalog', 'mf-checkout', 'mf-admin'] as const) {
      await stack.stopPart(part);
      await stack.startPart(part);
    }
  }
  // The current release back in place, the shell never restarted: rendered on the server again.
  const served = await (await fetch(`${baseURL}/`, { headers: { Accept: 'text/html' } })).text();
  expect(served).toContain('Featured Products');
});

test('the previous release of the shell runs the current remotes from their versioned paths', async ({
  page,
  stack,
  baseURL,
  consoleProblems,
}) => {
  test.setTimeout(600_000);
  const shell = await previousReleaseBuild('shell');
  const failures = frontEndFailuresOf(page);
  const scriptsOf = (html: string) => [...html.matchAll(/<script[^>]* src="?([^"\s>]+)/g)].map((m) => m[1]);
  try {
    // The shell of the previous release reads only the flat remotes.json; its URLs name the versions.
    await stack.stopPart('shell');
    stack.pointRemotes({}, 'flat');
    await stack.startPart('shell', { dir: shell.dist });

    const product = await productCreatedNow(baseURL!, 'Compatibility');
    await shopAcrossRemotes(page, product);

    // The page that ran is the previous shell's, served at the root as that release was.
    const scripts = await page
      .locator('script[src]')
      .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('src')));
    expect(scripts).toEqual(scriptsOf(readFileSync(join(shell.dist, 'index.html'), 'utf8')));
    // That release has no page server: its page arrives empty and is drawn in the browser, as it was.
    const served = await (await fetch(`${baseURL}/`, { headers: { Accept: 'text/html' } })).text();
    expect(served).not.toContain('shop-first-screen');

    // The current admin remote under the previous shell, for an admin.
    await startSignedIn(page, admin);
    await adminAcrossScreens(page, product);
    expect(failures).toEqual([]);
    expect(consoleProblems.map((message) => message.text())).toEqual([]);
  } finally {
    await stack.stopPart('shell');
    stack.pointRemotes({}, 'schema-2');
    await stack.startPart('shell');
  }
});
