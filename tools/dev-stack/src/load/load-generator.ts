import { randomBytes, randomUUID } from 'node:crypto';
import { MEDIA_VARIANT_WIDTHS, type Order, type Product, type UserInfo } from '@shop/contracts';
import { JOURNEYS, type Journey, type LoadSettings, pickJourney } from './load-settings.js';

/** What the load generator did: journeys started per kind, those skipped at the bound, answers by status. */
export interface LoadSummary {
  journeys: Record<Journey, number>;
  /** Journeys due while `concurrency` were still running: not started, so the rate stays bounded. */
  skipped: number;
  requests: number;
  /** Answers by HTTP status; `error` for a request that got no answer (refused, timed out). */
  statuses: Record<string, number>;
  /** Browser walks (home → product → cart) finished. */
  browserWalks: number;
}

export interface RunningLoad {
  /** Settles when the load has stopped by itself (its minutes are over) or was stopped. */
  done: Promise<LoadSummary>;
  summary(): LoadSummary;
  stop(): Promise<LoadSummary>;
}

export interface LoadOptions {
  /** The shop's gateway. */
  url: string;
  settings: LoadSettings;
  log?: (line: string) => void;
  /** Chromium for the browser walks (Debian's by default). */
  chromiumPath?: string;
}

const REQUEST_TIMEOUT_MS = 10_000;
const CATALOGUE_REFRESH_MS = 60_000;
const SHOPPERS = 2;
const BROWSER_PAUSE_MS = 5_000;

const SHIPPING = {
  address: '1 Load Street',
  city: 'Fresno',
  country: 'United States',
  phoneNumber: '+1 555 0100',
};

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;

/**
 * Shoppers through the gateway at a steady pace (docs/observability.md, "Load"): weighted journeys (browse,
 * search, view a product, the cart, a checkout that the shopper then cancels, so stock goes back), each
 * one trace (every request carries a `traceparent` of the journey's trace id). Open loop, bounded: at most
 * `concurrency` journeys at once, and it stops by itself after `minutes`.
 */
export async function startLoad(options: LoadOptions): Promise<RunningLoad> {
  const { url, settings } = options;
  const log = options.log ?? (() => undefined);
  const summary: LoadSummary = {
    journeys: Object.fromEntries(JOURNEYS.map((journey) => [journey, 0])) as Record<Journey, number>,
    skipped: 0,
    requests: 0,
    statuses: {},
    browserWalks: 0,
  };

  /** One request of a journey, under the journey's trace. */
  const request = async <T>(
    traceId: string,
    path: string,
    init: { method?: string; token?: string; json?: unknown; headers?: Record<string, string> } = {},
  ): Promise<{ status: number; body?: T }> => {
    summary.requests += 1;
    try {
      const response = await fetch(new URL(path, url), {
        method: init.method ?? 'GET',
        headers: {
          traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01`,
          ...(init.token && { authorization: `Bearer ${init.token}` }),
          ...(init.json !== undefined && { 'content-type': 'application/json' }),
          ...init.headers,
        },
        body: init.json === undefined ? undefined : JSON.stringify(init.json),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      const key = String(response.status);
      summary.statuses[key] = (summary.statuses[key] ?? 0) + 1;
      const type = response.headers.get('content-type') ?? '';
      const body = type.includes('application/json') ? ((await response.json()) as T) : undefined;
      if (!body) await response.body?.cancel();
      return { status: response.status, body };
    } catch {
      summary.statuses['error'] = (summary.statuses['error'] ?? 0) + 1;
      return { status: 0 };
    }
  };

  let products: Product[] = [];
  const readCatalogue = async () => {
    const answer = await request<Product[]>(newTraceId(), '/api/products?page=1&pageSize=48');
    if (answer.status === 200 && Array.isArray(answer.body)) products = answer.body;
  };
  await readCatalogue();
  const shoppers = await signUpShoppers(request);
  log(
    `load         ${settings.rate} journeys/s for ${settings.minutes} min through ${url}` +
      ` (${products.length} products, ${shoppers.length} shoppers${settings.browser ? ', and a browser' : ''})`,
  );

  const words = () => [...products.map((product) => product.name.split(' ')[0]!), 'nothing-matches'];
  const journeys: Record<Journey, (traceId: string) => Promise<void>> = {
    async browse(traceId) {
      await request(traceId, `/api/products?page=${1 + Math.floor(Math.random() * 3)}&pageSize=12`);
      if (Math.random() < 0.3) await request(traceId, '/');
    },
    async search(traceId) {
      const query = encodeURIComponent(pick(words()).toLowerCase());
      await request(traceId, `/api/products?query=${query}&page=1&pageSize=12`);
      await request(traceId, `/api/products/facets?query=${query}`);
    },
    async view(traceId) {
      if (products.length === 0) return;
      const product = pick(products);
      await request(traceId, `/api/products/slug/${product.slug}`);
      const image = product.image[0];
      if (image)
        await request(traceId, `${image}?w=${pick(MEDIA_VARIANT_WIDTHS)}`, {
          headers: { accept: 'image/webp' },
        });
    },
    async cart(traceId) {
      if (products.length === 0) return;
      await request(traceId, `/api/products/${pick(products)._id}`);
      await request(traceId, '/api/wallet/all-wallets');
    },
    async checkout(traceId) {
      const inStock = products.filter((product) => product.countInStock > 0);
      if (shoppers.length === 0 || inStock.length === 0) return;
      const shopper = pick(shoppers);
      const placed = await request<Order>(traceId, '/api/orders', {
        method: 'POST',
        token: shopper.token,
        headers: { 'idempotency-key': randomUUID() },
        json: {
          orderItems: [{ _id: pick(inStock)._id, quantity: 1 }],
          shippingAddress: { fullName: shopper.name, ...SHIPPING },
          paymentMethod: 'bitcoin',
        },
      });
      // The shopper cancels it: the stock goes back, and the load takes none of the shop's for good.
      if (placed.status === 201 && placed.body) {
        await request(traceId, `/api/orders/${placed.body._id}/cancel`, {
          method: 'PUT',
          token: shopper.token,
        });
      }
    },
  };

  let running = 0;
  const inFlight = new Set<Promise<void>>();
  const startJourney = () => {
    if (running >= settings.concurrency) {
      summary.skipped += 1;
      return;
    }
    const journey = pickJourney(settings.weights, Math.random());
    summary.journeys[journey] += 1;
    running += 1;
    const run = journeys[journey](newTraceId()).finally(() => {
      running -= 1;
      inFlight.delete(run);
    });
    inFlight.add(run);
  };

  let stopped = false;
  const ticker = setInterval(startJourney, 1_000 / settings.rate);
  const refresher = setInterval(() => void readCatalogue(), CATALOGUE_REFRESH_MS);
  const browser = settings.browser
    ? walkInBrowser(url, options.chromiumPath, summary, () => stopped, log)
    : undefined;
  let finish!: (value: LoadSummary) => void;
  const done = new Promise<LoadSummary>((resolve) => (finish = resolve));
  const stop = async () => {
    if (!stopped) {
      stopped = true;
      clearInterval(ticker);
      clearInterval(refresher);
      clearTimeout(deadline);
      await Promise.allSettled([...inFlight, browser]);
      log(`load         stopped: ${describeSummary(summary)}`);
      finish(summary);
    }
    return done;
  };
  const deadline = setTimeout(() => void stop(), settings.minutes * 60_000);
  return { done, summary: () => summary, stop };
}

function newTraceId(): string {
  return randomBytes(16).toString('hex');
}

/** The shoppers who check out: fresh accounts of this run (none when the shop refuses sign-ups now). */
async function signUpShoppers(
  request: <T>(
    traceId: string,
    path: string,
    init: { method: string; json: unknown },
  ) => Promise<{ status: number; body?: T }>,
): Promise<UserInfo[]> {
  const run = randomBytes(4).toString('hex');
  const shoppers: UserInfo[] = [];
  for (let n = 1; n <= SHOPPERS; n += 1) {
    const answer = await request<UserInfo>(newTraceId(), '/api/users/signup', {
      method: 'POST',
      json: {
        name: `Load Shopper ${n}`,
        email: `load-${run}-${n}@load.example`,
        password: randomBytes(12).toString('base64url'),
      },
    });
    if (answer.status === 201 && answer.body) shoppers.push(answer.body);
  }
  return shoppers;
}

/** A shopper in Chromium: home, a product's page, Add to Cart, the cart; again every few seconds. */
async function walkInBrowser(
  url: string,
  chromiumPath: string | undefined,
  summary: LoadSummary,
  stopped: () => boolean,
  log: (line: string) => void,
): Promise<void> {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: chromiumPath ?? '/usr/bin/chromium' });
  try {
    const page = await browser.newPage();
    while (!stopped()) {
      try {
        await page.goto(url);
        const card = page.locator('a[href^="/product/"]').first();
        await card.click({ timeout: REQUEST_TIMEOUT_MS });
        await page.waitForURL(/\/product\//);
        const add = page.getByRole('button', { name: 'Add to Cart' });
        if (await add.isEnabled({ timeout: REQUEST_TIMEOUT_MS }).catch(() => false)) await add.click();
        await page.goto(new URL('/cart', url).toString());
        summary.browserWalks += 1;
      } catch (error) {
        log(
          `load         browser walk failed: ${error instanceof Error ? error.message.split('\n')[0] : error}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, BROWSER_PAUSE_MS));
    }
  } finally {
    await browser.close();
  }
}

/** One line: journeys by kind, skipped, requests by status. */
export function describeSummary(summary: LoadSummary): string {
  const journeys = JOURNEYS.map((journey) => `${journey} ${summary.journeys[journey]}`).join(', ');
  const statuses = Object.entries(summary.statuses)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([status, count]) => `${status}: ${count}`)
    .join(', ');
  return `${journeys}; skipped ${summary.skipped}; ${summary.requests} requests (${statuses})${
    summary.browserWalks ? `; ${summary.browserWalks} browser walks` : ''
  }`;
}
