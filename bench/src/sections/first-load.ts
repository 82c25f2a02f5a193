// docs/performance.md, "First load of `/`": the JavaScript a shopper's browser downloads for the first load
// of `/` (measured in Chromium through the gateway, nothing cached), at the first screen and once the page
// has settled (nothing more loads by itself: the toasts arrive seconds after the load event), against the
// floor of what the first screen runs, built in the same run from the same versions
// (tools/webpack-preset/first-load-floor.cjs). Decision 0019's budget: the floor plus at most 20 KB of the
// shop's own first-screen code, and settled at most 1.45 x the floor. The budget itself is a test
// (e2e/tests/first-load.spec.ts); this section puts the figures in the report.
import { buildFirstLoadFloor, measureFirstLoad } from '@shop/first-load';
import { chromium, type Page } from 'playwright-core';
import { type BenchContext, type BenchSection, type Figure, figure } from '../lib/figure.js';

/** Decision 0019: the shop's own first-screen code above the floor, at most. */
const OWN_CODE_BUDGET_KB = 20;
/** Decision 0019: the settled page against the floor, at most. */
const SETTLED_FLOOR_TARGET = 1.45;

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
          id: 'first-load.first-screen-vs-budget',
          section: 'first load of /',
          measured: firstScreen,
          reference: {
            what: `the floor plus ${OWN_CODE_BUDGET_KB} KB of our own code (decision 0019), brotli`,
            value: floor.brotliBytes / 1024 + OWN_CODE_BUDGET_KB,
            unit: 'KB',
          },
          better: 'lower',
          target: 1,
          notes: `floor ${floorKB.value.toFixed(1)} KB: ${floor.shared.join(', ')} and a host's federation runtime; our own code above it ${((brotli.scriptBytes - floor.brotliBytes) / 1024).toFixed(1)} KB; scripts: ${listed(brotli.scripts)}`,
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
          target: SETTLED_FLOOR_TARGET,
          notes: `scripts: ${listed(brotli.settled.scripts)}; admin requests: ${admin.length}`,
        }),
      ];
    } finally {
      await browser.close();
    }
  },
};
