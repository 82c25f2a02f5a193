// What a shopper's browser downloads to show a page for the first time: every script (and apart, every
// stylesheet), by its bytes on the wire, with nothing cached. Shared by the byte-budget test (e2e) and `npm run bench`.
import { createRequire } from 'node:module';
import type { Browser, Page, Request } from 'playwright-core';

/** Scripts downloaded up to some moment. */
export interface ScriptBytes {
  /** Each script with its compressed size, largest first. */
  scripts: Array<{ path: string; bytes: number }>;
  /** Sum of the scripts' compressed sizes. */
  scriptBytes: number;
  /** Every URL path the page requested (scripts, data, images, ...), in request order. */
  requests: string[];
  /** Each stylesheet file with its compressed size, largest first (the CSS is not in the scripts). */
  stylesheets: Array<{ path: string; bytes: number }>;
  /** Sum of the stylesheets' compressed sizes. */
  stylesheetBytes: number;
}

export interface FirstLoad extends ScriptBytes {
  /** The shared modules (by share key) the federation runtime had loaded when the first screen showed. */
  shared: string[];
  /**
   * Everything the page downloaded by itself, with nobody touching it, until nothing more came: the first
   * screen's scripts and whatever the page fetches later on its own (react-toastify a few seconds after the
   * load event), measured once no request had started for `quietMs`.
   */
  settled: ScriptBytes & { shared: string[]; quietMs: number };
}

/** How long without a new request counts as "nothing more loads by itself": longer than any of the page's own timers. */
const QUIET_MS = 8_000;
/** Give up waiting for quiet after this long (a page that polls never settles: that is then the finding). */
const SETTLE_LIMIT_MS = 60_000;

/**
 * Opens `url` in a fresh context asking for `encoding` and answers what it downloaded twice: when `ready`
 * says the first screen is shown and the network is idle, and once the page has settled (above).
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
    const pathOf = (request: Request) => request.url().replace(origin, '');
    const requests: string[] = [];
    const sizes: Array<Promise<{ path: string; bytes: number } | undefined>> = [];
    const styleSizes: Array<Promise<{ path: string; bytes: number } | undefined>> = [];
    let lastRequestAt = Date.now();
    page.on('request', (request) => {
      lastRequestAt = Date.now();
      requests.push(pathOf(request));
    });
    page.on('requestfinished', (request) => {
      const kind = request.resourceType();
      if (kind !== 'script' && kind !== 'stylesheet') return;
      (kind === 'script' ? sizes : styleSizes).push(
        request.sizes().then((size) => ({ path: pathOf(request), bytes: size.responseBodySize })),
      );
    });
    // A file asked for twice (a preload, then the script) counts once; the second answer, from the
    // memory cache, reports no sensible size (negative in Chromium).
    const largestOf = async (found: typeof sizes) => {
      const largest = new Map<string, number>();
      for (const file of await Promise.all([...found]))
        if (file && file.bytes > (largest.get(file.path) ?? 0)) largest.set(file.path, file.bytes);
      const files = [...largest].map(([path, bytes]) => ({ path, bytes })).sort((a, b) => b.bytes - a.bytes);
      return { files, bytes: files.reduce((sum, file) => sum + file.bytes, 0) };
    };
    const scriptsSoFar = async (): Promise<ScriptBytes> => {
      const scripts = await largestOf(sizes);
      const stylesheets = await largestOf(styleSizes);
      return {
        scripts: scripts.files,
        scriptBytes: scripts.bytes,
        requests: [...requests],
        stylesheets: stylesheets.files,
        stylesheetBytes: stylesheets.bytes,
      };
    };

    await page.goto(url);
    await options.ready(page);
    await page.waitForLoadState('networkidle');
    const firstScreen = await scriptsSoFar();
    const shared = await page.evaluate(loadedShareKeys);

    const settleBy = Date.now() + SETTLE_LIMIT_MS;
    while (Date.now() - lastRequestAt < QUIET_MS) {
      if (Date.now() > settleBy)
        throw new Error(`${url} still requests files ${SETTLE_LIMIT_MS} ms after loading`);
      await page.waitForTimeout(250);
    }
    await page.waitForLoadState('networkidle');
    const settled = {
      ...(await scriptsSoFar()),
      shared: await page.evaluate(loadedShareKeys),
      quietMs: QUIET_MS,
    };
    return { ...firstScreen, shared, settled };
  } finally {
    await context.close();
  }
}

/** Runs in the page: the share keys the federation runtime has loaded (any version, any share scope). */
function loadedShareKeys(): string[] {
  type Versions = Record<string, { loaded?: boolean; lib?: unknown }>;
  const federation = (
    globalThis as {
      __FEDERATION__?: { __SHARE__?: Record<string, Record<string, Record<string, Versions>>> };
    }
  ).__FEDERATION__;
  const keys = new Set<string>();
  for (const scopes of Object.values(federation?.__SHARE__ ?? {}))
    for (const packages of Object.values(scopes))
      for (const [key, versions] of Object.entries(packages))
        if (Object.values(versions).some((shared) => shared.loaded || shared.lib)) keys.add(key);
  return [...keys].sort();
}

/** The framework floor the first load is measured against (tools/webpack-preset/first-load-floor.cjs). */
export interface FirstLoadFloor {
  gzipBytes: number;
  brotliBytes: number;
  files: string[];
  /** The share keys of the libraries the floor holds: what the first screen of `/` runs. */
  shared: string[];
}

/** Builds the framework floor the first load is measured against (tools/webpack-preset/first-load-floor.cjs). */
export function buildFirstLoadFloor(): Promise<FirstLoadFloor> {
  const require = createRequire(import.meta.url);
  const { buildFirstLoadFloor: build } = require('@shop/webpack-preset/first-load-floor') as {
    buildFirstLoadFloor: () => Promise<FirstLoadFloor>;
  };
  return build();
}
