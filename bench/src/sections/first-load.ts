// docs/performance.md, "First load of `/`": the JavaScript a shopper's browser downloads for the first load
// of `/` (measured in Chromium through the gateway, nothing cached), at the first screen and once the page
// has settled (nothing more loads by itself: the toasts arrive seconds after the load event), against the
// floor of what the first screen runs, built in the same run from the same versions
// (tools/webpack-preset/first-load-floor.cjs), and against the absolute budget of 100 KB brotli. The byte
// budget itself is a test (e2e/tests/first-load.spec.ts); this section puts the figures in the report.
import { buildFirstLoadFloor, measureFirstLoad } from '@shop/first-load';
import { chromium, type Page } from 'playwright-core';
import { type BenchContext, type BenchSection, type Figure, figure } from '../lib/figure.js';

/** The target against the floor. */
const FLOOR_TARGET = 1.15;
/** The absolute budget of the first screen's JavaScript, brotli. */
const ABSOLUTE_BUDGET_KB = 100;

export const firstLoadSection: BenchSection = {
  name: 'first-load',
  async run({ stack, log }: BenchContext): Promise<Figure[]> {
    log('building the first-load floor (webpack production build)...');
    const floor = await buildFirstLoadFloor();
    const browser = await chromium.launch({
      executablePath: process.env['CHROME_PATH'] ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
    try {
      const ready = async (page: Page) => {
        await page.getByRole('list', { name: 'Products' }).getByRole('listitem').first().waitFor();
      };
      const brotli = await measureFirstLoad(browser, `${stack.url}/`, { encoding: 'br', ready });
      const admin = brotli.settled.requests.filter((path) => path.startsWith('/remotes/admin'));
      const listed = (scripts: typeof brotli.scripts) =>
        scripts.map((script) => `${script.path} ${(script.bytes / 1024).toFixed(1)} KB`).join(', ');
      const floorKB = { what: 'first-screen floor, brotli', value: floor.brotliBytes / 1024, unit: 'KB' };
      const firstScreen = {
        what: 'JavaScript of the first screen of /, brotli',
        value: brotli.scriptBytes / 1024,
        unit: 'KB',
      };
      return [
        figure({
          id: 'first-load.first-screen-vs-floor',
          section: 'first load of /',
          measured: firstScreen,
          reference: floorKB,
          better: 'lower',
          target: FLOOR_TARGET,
          notes: `floor: ${floor.shared.join(', ')} and a host's federation runtime; scripts: ${listed(brotli.scripts)}`,
        }),
        figure({
          id: 'first-load.settled-vs-floor',
          section: 'first load of /',
          measured: {
            what: `the same once settled (quiet for ${brotli.settled.quietMs / 1000} s)`,
            value: brotli.settled.scriptBytes / 1024,
            unit: 'KB',
          },
          reference: floorKB,
          better: 'lower',
          target: FLOOR_TARGET,
          notes: `scripts: ${listed(brotli.settled.scripts)}; admin requests: ${admin.length}`,
        }),
        figure({
          id: 'first-load.first-screen-absolute',
          section: 'first load of /',
          measured: firstScreen,
          reference: { what: 'absolute budget, brotli', value: ABSOLUTE_BUDGET_KB, unit: 'KB' },
          better: 'lower',
          target: 1,
        }),
      ];
    } finally {
      await browser.close();
    }
  },
};
