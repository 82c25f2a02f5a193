// What a shopper's browser downloads to show a page for the first time: every script, by its bytes on
// the wire, with nothing cached. Shared by the byte-budget test (e2e) and `npm run bench`.
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';

export interface FirstLoad {
  /** Each script with its compressed size, largest first. */
  scripts: Array<{ path: string; bytes: number }>;
  /** Sum of the scripts' compressed sizes. */
  scriptBytes: number;
  /** Every URL path the page requested (scripts, data, images, ...), in request order. */
  requests: string[];
}

/**
 * Opens `url` in a fresh context asking for `encoding`, waits until `ready` says the page is shown and the
 * network is idle (nothing started later by itself is missed), and answers what was downloaded.
 */
export async function measureFirstLoad(
  browser: Browser,
  url: string,
  options: { encoding: 'gzip' | 'br'; ready: (page: Page) => Promise<void> },
): Promise<FirstLoad> {
  const context = await browser.newContext({ extraHTTPHeaders: { 'Accept-Encoding': options.encoding } });
  try {
    const page = await context.newPage();
    const origin = new URL(url).origin;
    const requests: string[] = [];
    const sizes: Array<Promise<{ path: string; bytes: number } | undefined>> = [];
    page.on('request', (request) => requests.push(request.url().replace(origin, '')));
    page.on('requestfinished', (request) => {
      if (request.resourceType() !== 'script') return;
      sizes.push(
        request
          .sizes()
          .then((size) => ({ path: request.url().replace(origin, ''), bytes: size.responseBodySize })),
      );
    });
    await page.goto(url);
    await options.ready(page);
    await page.waitForLoadState('networkidle');
    const scripts = (await Promise.all(sizes))
      .filter((script) => script !== undefined)
      .sort((a, b) => b.bytes - a.bytes);
    return { scripts, scriptBytes: scripts.reduce((sum, s) => sum + s.bytes, 0), requests };
  } finally {
    await context.close();
  }
}

/** The framework floor the first load is measured against (tools/webpack/first-load-floor.cjs). */
export function buildFirstLoadFloor(): Promise<{ gzipBytes: number; brotliBytes: number; files: string[] }> {
  const require = createRequire(import.meta.url);
  const { buildFirstLoadFloor: build } = require('../webpack/first-load-floor.cjs') as {
    buildFirstLoadFloor: () => Promise<{ gzipBytes: number; brotliBytes: number; files: string[] }>;
  };
  return build();
}
