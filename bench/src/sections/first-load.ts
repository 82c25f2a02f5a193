// Issue 16, item 2: the JavaScript a shopper's browser downloads for the first load of `/` (gzip and
// brotli, measured in Chromium through the gateway, nothing cached) against the framework floor built in
// the same run from the same versions (tools/webpack/first-load-floor.cjs). The byte budget itself is a
// test (e2e/tests/first-load.spec.ts); this section puts the figures in the report.
import { buildFirstLoadFloor, measureFirstLoad } from '@shop/tools';
import { chromium, type Page } from 'playwright-core';
import { type BenchContext, type BenchSection, type Figure, figure } from '../lib/figure.js';

const BUDGET = 1.15;

export const firstLoadSection: BenchSection = {
  name: 'first-load',
  async run({ stack, log }: BenchContext): Promise<Figure[]> {
    log('building the framework floor (webpack production build)...');
    const floor = await buildFirstLoadFloor();
    const browser = await chromium.launch({
      executablePath: process.env['CHROME_PATH'] ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
    try {
      const ready = async (page: Page) => {
        await page.getByRole('list', { name: 'Products' }).getByRole('listitem').first().waitFor();
      };
      const gzip = await measureFirstLoad(browser, `${stack.url}/`, { encoding: 'gzip', ready });
      const brotli = await measureFirstLoad(browser, `${stack.url}/`, { encoding: 'br', ready });
      const admin = gzip.requests.filter((path) => path.startsWith('/remotes/admin'));
      const largest = gzip.scripts
        .slice(0, 5)
        .map((script) => `${script.path} ${(script.bytes / 1024).toFixed(1)} KB`)
        .join(', ');
      return [
        figure({
          id: 'first-load.gzip-vs-floor',
          section: 'first load of /',
          measured: {
            what: 'JavaScript of the first load of /, gzip',
            value: gzip.scriptBytes / 1024,
            unit: 'KB',
          },
          reference: { what: 'framework floor, gzip', value: floor.gzipBytes / 1024, unit: 'KB' },
          better: 'lower',
          target: BUDGET,
          notes: `${gzip.scripts.length} scripts; largest: ${largest}; admin requests: ${admin.length}`,
        }),
        figure({
          id: 'first-load.brotli-vs-floor',
          section: 'first load of /',
          measured: {
            what: 'the same, brotli (what Chromium is sent)',
            value: brotli.scriptBytes / 1024,
            unit: 'KB',
          },
          reference: { what: 'framework floor, brotli', value: floor.brotliBytes / 1024, unit: 'KB' },
          better: 'lower',
          target: BUDGET,
        }),
      ];
    } finally {
      await browser.close();
    }
  },
};
