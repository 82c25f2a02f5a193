import { expect, productCards, test } from './fixtures';

test('scripts arrive precompressed through the gateway, and no source map is fetched', async ({ page }) => {
  const scripts: Array<{ url: string; encoding: string | undefined; vary: string | undefined }> = [];
  page.on('response', (response) => {
    if (response.request().resourceType() === 'script') {
      const headers = response.headers();
      scripts.push({ url: response.url(), encoding: headers['content-encoding'], vary: headers['vary'] });
    }
  });
  const requested: string[] = [];
  page.on('request', (request) => requested.push(request.url()));

  await page.goto('/');
  await expect(productCards(page).first()).toBeVisible();
  await page.waitForLoadState('networkidle');

  expect(scripts.length).toBeGreaterThan(3);
  for (const script of scripts) {
    expect(script, script.url).toMatchObject({ encoding: 'br' });
    expect(script.vary, script.url).toMatch(/accept-encoding/i);
  }
  expect(requested.filter((url) => url.endsWith('.map'))).toEqual([]);
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
