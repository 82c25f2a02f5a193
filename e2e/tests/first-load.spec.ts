import { buildFirstLoadFloor, measureFirstLoad } from '@shop/tools';
import { expect, productCards, test } from './fixtures';

/** Issue 16: the first load of `/` carries at most this multiple of the framework floor (docs/performance.md). */
const FIRST_LOAD_BUDGET = 1.15;

test('a shopper’s first load of / stays within the byte budget and carries no admin code', async ({
  browser,
  baseURL,
}, testInfo) => {
  // Building the floor is a webpack production build (about 15–30 s).
  test.setTimeout(180_000);
  const floor = await buildFirstLoadFloor();
  const load = await measureFirstLoad(browser, `${baseURL}/`, {
    encoding: 'gzip',
    ready: (page) => expect(productCards(page).first()).toBeVisible(),
  });

  const lines = load.scripts.map((script) => `${String(script.bytes).padStart(8)}  ${script.path}`);
  await testInfo.attach('first-load.txt', {
    body: [
      `scripts ${load.scriptBytes} B gzip, floor ${floor.gzipBytes} B gzip, ratio ${(load.scriptBytes / floor.gzipBytes).toFixed(3)}`,
      ...lines,
    ].join('\n'),
  });

  expect(load.requests.filter((path) => path.startsWith('/remotes/admin'))).toEqual([]);
  expect(load.scriptBytes, lines.join('\n')).toBeGreaterThan(0);
  expect(load.scriptBytes / floor.gzipBytes, lines.join('\n')).toBeLessThanOrEqual(FIRST_LOAD_BUDGET);
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
