import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { FRONT_ENDS, type FrontEndName, REPO_ROOT } from '@shop/dev-stack';
import { expect, openProductPage, productCards, test } from './fixtures';

test('scripts arrive precompressed through the gateway', async ({ page }) => {
  const scripts: Array<{ url: string; encoding: string | undefined; vary: string | undefined }> = [];
  page.on('response', (response) => {
    // By file, not by resource type: a file the page preloads is fetched before its script element exists.
    if (new URL(response.url()).pathname.endsWith('.js')) {
      const headers = response.headers();
      scripts.push({ url: response.url(), encoding: headers['content-encoding'], vary: headers['vary'] });
    }
  });

  await page.goto('/');
  await expect(productCards(page).first()).toBeVisible();
  // Both static servers' files: the shell's (its first screen is one script) and the catalog remote's. A
  // rendered page starts its code once its first pictures are in (shell/src/first-screen/page-code.ts),
  // which a busy machine can put after half a second without a request: wait for the files, not for a
  // quiet network (a series run under a CPU burner found no script at network idle).
  const paths = () => [...new Set(scripts.map((script) => new URL(script.url).pathname))];
  const shellMain = /^\/\d+\.\d+\.\d+[^/]*\/main\.[0-9a-f]+\.js$/;
  await expect
    .poll(() => paths().filter((path) => shellMain.test(path)), { timeout: 15_000 })
    .toHaveLength(1);
  await expect
    .poll(() => paths().filter((path) => path.startsWith('/remotes/catalog/')).length, { timeout: 15_000 })
    .toBeGreaterThanOrEqual(2);
  await page.waitForLoadState('networkidle');
  for (const script of scripts) {
    expect(script, script.url).toMatchObject({ encoding: 'br' });
    expect(script.vary, script.url).toMatch(/accept-encoding/i);
  }
});

/** Where the gateway serves a front-end's build: the shell under its version, a remote under its name too. */
function publicFolder(app: FrontEndName, version: string): string {
  return app === 'shell' ? `/${version}/` : `/remotes/${app.replace(/^mf-/, '')}/${version}/`;
}

/** A comment that makes a browser's DevTools fetch a map: `//# sourceMappingURL=` (or the old `//@`). */
const MAP_COMMENT = /^\/\/[#@]\s*sourceMappingURL=/m;

test('source maps stay with the team: no served script names one, no map is served, and each build kept its maps', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(120_000);
  for (const app of FRONT_ENDS) {
    const { version } = JSON.parse(readFileSync(join(REPO_ROOT, app, 'package.json'), 'utf8')) as {
      version: string;
    };
    const dist = join(REPO_ROOT, app, 'dist');
    const scripts = readdirSync(dist).filter((file) => file.endsWith('.js'));
    expect(scripts.length, `${app} has scripts`).toBeGreaterThan(0);
    for (const file of scripts) {
      const url = `${baseURL}${publicFolder(app, version)}${file}`;
      const script = await fetch(url);
      expect(script.status, url).toBe(200);
      expect(script.headers.get('sourcemap') ?? script.headers.get('x-sourcemap'), url).toBeNull();
      expect(await script.text(), url).not.toMatch(MAP_COMMENT);
      // Where a map would be if the build had left it beside the script: refused like any missing file.
      const map = await fetch(`${url}.map`);
      expect(map.status, `${url}.map`).toBe(404);
      expect(((await map.json()) as { message?: string }).message, `${url}.map`).toBeTruthy();
    }
    // Stylesheets are files of their own in production builds: none may name a map either.
    for (const file of readdirSync(dist).filter((name) => name.endsWith('.css'))) {
      const url = `${baseURL}${publicFolder(app, version)}${file}`;
      const stylesheet = await fetch(url);
      expect(stylesheet.status, url).toBe(200);
      expect(await stylesheet.text(), url).not.toContain('sourceMappingURL');
    }
    // The team keeps them, outside what is served and what goes into an image (docs/performance.md): the
    // entry's map at least (webpack writes none for a chunk that only re-exports another).
    const entry = scripts.find((file) => /^(main\.[0-9a-f]+|remoteEntry)\.js$/.test(file));
    expect(entry, `${app}'s entry script`).toBeDefined();
    expect(
      existsSync(join(REPO_ROOT, app, 'source-maps', version, `${entry}.map`)),
      `${app} kept ${entry}.map`,
    ).toBe(true);
  }

  // A library may still inject a stylesheet from its script (the toasts do, once loaded: at the shopper's
  // first action, or 5 s after the load event, whether the click below was taken by the code or was a plain
  // link before it): none may carry an inline map (with its whole source) into the page.
  await page.goto('/');
  await openProductPage(page, productCards(page).first());
  const styles = () =>
    page.locator('style').evaluateAll((nodes) => nodes.map((node) => node.textContent ?? ''));
  await expect.poll(async () => (await styles()).length, { timeout: 15_000 }).toBeGreaterThan(0);
  expect((await styles()).filter((css) => css.includes('sourceMappingURL'))).toEqual([]);
});

test('a catalogue answer above 1 KB is compressed by the service and passed through by the gateway', async ({
  baseURL,
}) => {
  const plain = await fetch(`${baseURL}/api/products`, { headers: { 'Accept-Encoding': 'identity' } });
  const body = await plain.text();
  expect(body.length).toBeGreaterThan(1024);
  expect(plain.headers.get('content-encoding')).toBeNull();

  const compressed = await fetch(`${baseURL}/api/products`, { headers: { 'Accept-Encoding': 'br, gzip' } });
  expect(compressed.headers.get('content-encoding')).toBe('br');
  expect(await compressed.text()).toBe(body);
});
