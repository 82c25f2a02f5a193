import { buildFirstLoadFloor, measureFirstLoad } from '@shop/first-load';
import { expect, productCards, test } from './fixtures';

/**
 * The JavaScript of the first load of `/`, brotli (what Chromium is sent), everything the page fetches by
 * itself counted, against the floor of exactly what its first screen runs, and in absolute bytes
 * (docs/performance.md, "First load of /"). Both are ratchets at today's figures, NOT the targets,
 * which are missed: 1.15x the floor (1.42x settled) and 100 KB for the first screen (123 KB). The floor alone
 * is 92.5 KB, so 100 KB would leave the page's own code and its catalogue remote 7.5 KB.
 */
const FLOOR_RATIO_BUDGET = 1.45;
/** The absolute target for the first screen (not met: the test prints how far off). */
const FIRST_SCREEN_TARGET_BYTES = 100 * 1024;
/** Today's first screen (125 805 B brotli) with 1.1 KB of slack, so it cannot grow unnoticed. */
const FIRST_SCREEN_BUDGET_BYTES = 124 * 1024;

test('a shopper’s first load of / stays within the byte budgets (against the floor and absolute) and carries no admin code', async ({
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
  const report = [
    `floor ${floor.brotliBytes} B brotli (${floor.gzipBytes} B gzip): ${floor.shared.join(', ')}`,
    `first screen ${load.scriptBytes} B brotli, ratio ${ratio(load.scriptBytes)}, ` +
      `${load.scriptBytes - FIRST_SCREEN_TARGET_BYTES} B over the ${FIRST_SCREEN_TARGET_BYTES} B target`,
    ...lines(load.scripts),
    `settled (quiet for ${load.settled.quietMs} ms) ${load.settled.scriptBytes} B brotli, ratio ${ratio(load.settled.scriptBytes)}`,
    ...lines(load.settled.scripts),
  ].join('\n');
  console.log(report);
  await testInfo.attach('first-load.txt', { body: report });

  // The floor is what the first screen runs: the libraries the page had loaded then, its own aside.
  expect(load.shared.filter((key) => !key.startsWith('@shop/'))).toEqual([...floor.shared].sort());
  // The measure waited for what loads by itself later: the toasts come a few seconds after the load event.
  expect(load.settled.shared).toContain('react-toastify');
  expect(load.settled.scriptBytes).toBeGreaterThan(load.scriptBytes);
  expect(load.settled.requests.filter((path) => path.startsWith('/remotes/admin'))).toEqual([]);
  // The catalog's entry runs on the shell's federation runtime core: its own copy is for older shells only.
  expect(load.settled.requests.filter((path) => path.endsWith('/federation-runtime-core.js'))).toEqual([]);
  // Both budgets are checked (and reported) even when the first is over.
  expect
    .soft(load.settled.scriptBytes / floor.brotliBytes, lines(load.settled.scripts).join('\n'))
    .toBeLessThanOrEqual(FLOOR_RATIO_BUDGET);
  expect
    .soft(load.scriptBytes, lines(load.scripts).join('\n'))
    .toBeLessThanOrEqual(FIRST_SCREEN_BUDGET_BYTES);
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
