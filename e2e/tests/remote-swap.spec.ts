import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { REPO_ROOT } from '@shop/tools';
import { expect, productCards, test } from './fixtures';

const require = createRequire(import.meta.url);

/**
 * Builds a changed copy of the catalog remote, as its team would ship a new release: same
 * webpack config, same shared libraries, one visible change in its home screen.
 */
function buildCatalogRelease(change: (homePage: string) => string): string {
  const scratch = join(REPO_ROOT, 'tmp');
  mkdirSync(scratch, { recursive: true });
  const root = mkdtempSync(join(scratch, 'catalog-release-'));
  const project = join(root, 'mf-catalog');
  for (const entry of ['src', 'package.json', 'webpack.config.cjs']) {
    cpSync(join(REPO_ROOT, 'mf-catalog', entry), join(project, entry), { recursive: true });
  }
  // The config loads the shared factory from ../tools, as in the repository.
  symlinkSync(join(REPO_ROOT, 'tools'), join(root, 'tools'));
  const homePage = join(project, 'src', 'features', 'home', 'home-page.tsx');
  writeFileSync(homePage, change(readFileSync(homePage, 'utf8')));
  const build = spawnSync(
    process.execPath,
    [require.resolve('webpack-cli/bin/cli.js'), '--config', 'webpack.config.cjs'],
    {
      cwd: project,
      encoding: 'utf8',
    },
  );
  if (build.status !== 0) throw new Error(`catalog build failed:\n${build.stdout}\n${build.stderr}`);
  return join(project, 'dist');
}

test('rebuilding only the catalog remote changes the running storefront, without touching the shell', async ({
  page,
  stack,
}) => {
  test.setTimeout(240_000);
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Featured Products', exact: true })).toBeVisible();
  const shellScripts = () =>
    page.locator('script[src]').evaluateAll((nodes) => nodes.map((n) => n.getAttribute('src')));
  const scriptsBefore = await shellScripts();

  const release = buildCatalogRelease((source) => {
    expect(source).toContain('Featured Products');
    return source.replace('Featured Products', 'Featured Products: new arrivals');
  });
  try {
    // Deploying the new release replaces only the catalog's static files; the shell keeps running.
    await stack.stopPart('mf-catalog');
    await stack.startPart('mf-catalog', { dir: release });
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Featured Products: new arrivals' })).toBeVisible();
    await expect(productCards(page).first()).toBeVisible();
    expect(await shellScripts()).toEqual(scriptsBefore);
  } finally {
    await stack.stopPart('mf-catalog');
    await stack.startPart('mf-catalog');
    rmSync(join(release, '..', '..'), { recursive: true, force: true });
  }
});
