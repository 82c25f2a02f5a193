import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { frontEndFailuresOf, previousReleaseBuild } from './front-end-builds';
import { expect, openProductPage, productCards, test } from './fixtures';

/**
 * Parts are deployed at different times, so the shell of one release meets the remotes of another. These
 * tests run the previous release of each side (built from git history, see releases.json) against the
 * current other side, through the gateway, as a shopper would use them.
 */

/** Home (catalog), a product page (catalog), the cart (checkout): the screens of both shopper remotes. */
async function shopAcrossRemotes(page: Page): Promise<void> {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Featured Products', exact: true })).toBeVisible();
  // A seeded product: the ones earlier tests of a full run create come first in the grid, and opening one
  // of those right after a swap has stayed on 'Loading...' in some full runs (not understood yet; never
  // when the spec runs alone).
  const card = productCards(page).filter({ hasText: 'Glock 19 Gen5 9mm' });
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

test('the current shell runs the previous release of the catalog and checkout remotes', async ({
  page,
  stack,
  baseURL,
  consoleProblems,
}) => {
  test.setTimeout(600_000);
  // Built side by side: on a clean clone these are two webpack builds.
  const [catalog, checkout] = await Promise.all([
    previousReleaseBuild('mf-catalog'),
    previousReleaseBuild('mf-checkout'),
  ]);
  const failures = frontEndFailuresOf(page);
  try {
    await stack.stopPart('mf-catalog');
    await stack.startPart('mf-catalog', { dir: catalog.dist });
    await stack.stopPart('mf-checkout');
    await stack.startPart('mf-checkout', { dir: checkout.dist });

    await shopAcrossRemotes(page);

    // What the gateway served under the version remotes.json names is that previous build.
    const manifest = (await (await fetch(`${baseURL}/remotes.json`)).json()) as {
      remotes: Record<string, { url: string }>;
    };
    for (const [remote, build] of [
      ['catalog', catalog],
      ['checkout', checkout],
    ] as const) {
      const entryUrl = new URL('remoteEntry.js', new URL(manifest.remotes[remote]!.url, baseURL)).href;
      expect(await (await fetch(entryUrl)).text()).toBe(
        readFileSync(join(build.dist, 'remoteEntry.js'), 'utf8'),
      );
    }
    expect(failures).toEqual([]);
    expect(consoleProblems.map((message) => message.text())).toEqual([]);
  } finally {
    await stack.stopPart('mf-catalog');
    await stack.startPart('mf-catalog');
    await stack.stopPart('mf-checkout');
    await stack.startPart('mf-checkout');
  }
});

test('the previous release of the shell runs the current remotes from their versioned paths', async ({
  page,
  stack,
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

    await shopAcrossRemotes(page);

    // The page that ran is the previous shell's, served at the root as that release was.
    const scripts = await page
      .locator('script[src]')
      .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('src')));
    expect(scripts).toEqual(scriptsOf(readFileSync(join(shell.dist, 'index.html'), 'utf8')));
    expect(failures).toEqual([]);
    expect(consoleProblems.map((message) => message.text())).toEqual([]);
  } finally {
    await stack.stopPart('shell');
    stack.pointRemotes({}, 'schema-2');
    await stack.startPart('shell');
  }
});
