import { buildFirstLoadFloor, measureFirstLoad } from '@shop/tools';
import { expect, productCards, test } from './fixtures';

/**
 * The JavaScript of the first load of `/`, brotli (what Chromium is sent), everything the page fetches by
 * itself counted, against the floor of exactly what its first screen runs (docs/performance.md, "First load
 * of /"). A ratchet at today's figure: the target of 1.15x is not met (1.50x measured).
 */
const FIRST_LOAD_BUDGET = 1.55;

test('a shopper’s first load of / stays within the byte budget and carries no admin code', async ({
  browser,
  baseURL,
}, testInfo) => {
  // Building the floor is a webpack production build (about 15–30 s); the page is then watched until it has
  // been quiet for 8 s.
  test.setTimeout(180_000);
  const floor = await buildFirstLoadFloor();
  const load = await measureFirstLoad(browser, `${baseURL}/`, {
    encoding: 'br',
    ready: (page) => expect(productCards(page).first()).toBeVisible(),
  });

  const lines = (scripts: typeof load.scripts) =>
    scripts.map((script) => `${String(script.bytes).padStart(8)}  ${script.path}`);
  const ratio = (bytes: number) => (bytes / floor.brotliBytes).toFixed(3);
  await testInfo.attach('first-load.txt', {
    body: [
      `floor ${floor.brotliBytes} B brotli (${floor.gzipBytes} B gzip): ${floor.shared.join(', ')}`,
      `first screen ${load.scriptBytes} B brotli, ratio ${ratio(load.scriptBytes)}`,
      ...lines(load.scripts),
      `settled (quiet for ${load.settled.quietMs} ms) ${load.settled.scriptBytes} B brotli, ratio ${ratio(load.settled.scriptBytes)}`,
      ...lines(load.settled.scripts),
    ].join('\n'),
  });

  // The floor is what the first screen runs: the libraries the page had loaded then, its own aside.
  expect(load.shared.filter((key) => !key.startsWith('@shop/'))).toEqual([...floor.shared].sort());
  // The measure waited for what loads by itself later: the toasts come a few seconds after the load event.
  expect(load.settled.shared).toContain('react-toastify');
  expect(load.settled.scriptBytes).toBeGreaterThan(load.scriptBytes);
  expect(load.settled.requests.filter((path) => path.startsWith('/remotes/admin'))).toEqual([]);
  expect(
    load.settled.scriptBytes / floor.brotliBytes,
    lines(load.settled.scripts).join('\n'),
  ).toBeLessThanOrEqual(FIRST_LOAD_BUDGET);
});

test('the catalogue is requested once, before the catalogue remote’s code, not after it', async ({
  page,
}) => {
  const requests: string[] = [];
  page.on('request', (request) => requests.push(new URL(request.url()).pathname));
  await page.goto('/');
  await expect(productCards(page).first()).toBeVisible();

  const catalogue = requests.filter((path) => path === '/api/products');
  expect(catalogue).toHaveLength(1);
  const remoteEntry = requests.findIndex((path) => /^\/remotes\/catalog\/.*remoteEntry\.js$/.test(path));
  expect(remoteEntry).toBeGreaterThan(-1);
  expect(requests.indexOf('/api/products')).toBeLessThan(remoteEntry);
});
