import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import type { UserInfo } from '@shop/contracts';
import { REPO_ROOT, type RunningStack, SERVICES } from '@shop/dev-stack';
import { parseAllDocuments } from 'yaml';
import {
  SEEDED_ADMIN,
  expect,
  productCards,
  signInThroughApi,
  signUpThroughApi,
  startSignedIn,
  test,
} from './fixtures';
import { createListing, uploadedPicture } from './support/listings';
import { type Span, isUnder, observabilityOf, queryVictoriaMetrics, traceUntil } from './support/telemetry';

// What docs/observability.md promises: one request of the browser is one trace in Jaeger across the gateway,
// orders, NATS, products and its database; every part's metrics move with known traffic, and VictoriaMetrics
// has them. The stack runs Jaeger and VictoriaMetrics unless SHOP_OBSERVABILITY=0 (then these fail).

const SHIPPING = {
  fullName: 'Trace Shopper',
  address: '1 Main Street',
  city: 'Sacramento',
  country: 'United States',
  phoneNumber: '555 0100',
};

async function createProduct(baseURL: string, admin: UserInfo, name: string, countInStock: number) {
  return createListing(baseURL, admin.token, {
    name,
    slug: name.toLowerCase().replace(/[^a-z0-9]+/g, '-'),
    image: await uploadedPicture(baseURL, admin.token, 'trace.png'),
    price: 19.5,
    countInStock,
    description: 'Made for the observability test',
  });
}

/** The admin, a product of this test's own with `stock`, and a shopper to buy it. */
async function setUpPurchase(baseURL: string, name: string, stock: number) {
  const admin = await signInThroughApi(baseURL, SEEDED_ADMIN.email, SEEDED_ADMIN.password);
  const product = await createProduct(baseURL, admin, `${name} ${Date.now().toString(36)}`, stock);
  const shopper = await signUpThroughApi(baseURL, { name: SHIPPING.fullName });
  return { admin, product, shopper };
}

/** The trace id and the browser's own span id of a W3C traceparent the page sent. */
function parseTraceparent(header: string | null): { traceId: string; parentId: string } {
  const match = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/.exec(header ?? '');
  if (!match) throw new Error(`the page sent no sampled W3C traceparent: ${header}`);
  return { traceId: match[1]!, parentId: match[2]! };
}

/** The request `action` makes whose method and path match, and its traceparent. */
async function traceOfRequest(
  page: Page,
  method: string,
  path: RegExp,
  action: () => Promise<void>,
): Promise<{ traceId: string; parentId: string }> {
  const sent = page.waitForRequest(
    (request) => request.method() === method && path.test(new URL(request.url()).pathname),
  );
  await action();
  return parseTraceparent(await (await sent).headerValue('traceparent'));
}

/**
 * The span of a JetStream event (`shop.events.order.paid process`) or a NATS command
 * (`products.reserve publish`): named `<subject> <operation>`.
 */
const isMessage = (span: Span, subject: string, operation: 'publish' | 'process') =>
  span.name === `${subject} ${operation}` || span.name.endsWith(`.${subject} ${operation}`);

/** A database write of this service's MongoDB instrumentation. */
const isDbWrite = (span: Span) =>
  span.tags['db.system'] === 'mongodb' ||
  span.tags['db.system.name'] === 'mongodb' ||
  /^mongo/i.test(span.name)
    ? /insert|update|findAndModify|findOneAnd|bulkWrite|delete/i.test(
        `${span.name} ${String(span.tags['db.operation'] ?? span.tags['db.operation.name'] ?? '')}`,
      )
    : false;

/**
 * One trace, rooted in the browser: its gateway span's parent is the span id the page sent, and every
 * other span's parent is a span of the same trace (no broken link anywhere).
 */
function expectLinksIntact(spans: Span[], browserSpanId: string): Span {
  const ids = new Set(spans.map((span) => span.id));
  const roots = spans.filter((span) => !span.parentId || !ids.has(span.parentId));
  expect(
    roots.map((span) => `${span.service}: ${span.name} (parent ${span.parentId})`),
    'the only span whose parent is outside the trace is the gateway span under the browser',
  ).toHaveLength(1);
  const [gateway] = roots;
  expect(gateway!.service).toBe('gateway');
  expect(gateway!.kind).toBe('server');
  expect(gateway!.parentId).toBe(browserSpanId);
  return gateway!;
}

test.describe('traces', () => {
  test('placing an order in the browser is one trace: gateway, orders, the NATS command to products, its database write, and the order event; the admin marking it paid is one trace down to the consumer in products', async ({
    page,
    browser,
    baseURL,
    stack,
  }) => {
    test.setTimeout(120_000);
    const { jaegerUrl } = observabilityOf(stack);
    const { admin, product, shopper } = await setUpPurchase(baseURL!, 'Traced Sling', 5);

    // The shopper's order, through the screens.
    await startSignedIn(page, shopper);
    await page.goto('/');
    await productCards(page)
      .filter({ hasText: product.name })
      .getByRole('button', { name: 'Add to Cart' })
      .click();
    await expect
      .poll(() =>
        page.evaluate(() => (JSON.parse(localStorage.getItem('cartItems') ?? '[]') as unknown[]).length),
      )
      .toBe(1);
    await page.goto('/cart');
    await page.getByRole('button', { name: 'Proceed to Checkout' }).click();
    await expect(page).toHaveURL(/\/shipping$/);
    await page.getByLabel('Full Name').fill(SHIPPING.fullName);
    await page.getByLabel('Address').fill(SHIPPING.address);
    await page.getByLabel('City').fill(SHIPPING.city);
    await page.getByLabel('Country').selectOption('United States of America');
    await page.getByLabel('Phone Number').fill('+1 (916) 555-0100');
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page).toHaveURL(/\/payment$/);
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page).toHaveURL(/\/placeorder$/);
    const placed = await traceOfRequest(page, 'POST', /^\/api\/orders$/, () =>
      page.getByRole('button', { name: 'Place Order' }).click(),
    );
    await expect(page).toHaveURL(/\/order\/[0-9a-f]{24}$/);
    const orderId = page.url().split('/').pop()!;

    const orderSpans = await traceUntil(
      jaegerUrl,
      placed.traceId,
      (spans) =>
        spans.some((span) => isMessage(span, 'products.reserve', 'process')) &&
        spans.some((span) => isMessage(span, 'order.created', 'publish')),
    );
    const gateway = expectLinksIntact(orderSpans, placed.parentId);
    const ordersServer = orderSpans.find(
      (span) => span.service === 'orders' && span.kind === 'server' && span.parentId === gateway.id,
    );
    expect(ordersServer, 'the orders service continues the gateway span').toBeDefined();
    const command = orderSpans.find(
      (span) => isMessage(span, 'products.reserve', 'publish') && span.service === 'orders',
    );
    expect(command?.kind).toBe('producer');
    expect(command?.tags['messaging.system']).toBe('nats');
    expect(isUnder(orderSpans, command!, ordersServer!)).toBe(true);
    const reserve = orderSpans.find(
      (span) => isMessage(span, 'products.reserve', 'process') && span.service === 'products',
    );
    expect(reserve?.kind).toBe('consumer');
    expect(isUnder(orderSpans, reserve!, command!), 'products handles the command orders sent').toBe(true);
    const stockWrite = orderSpans.find(
      (span) => span.service === 'products' && isDbWrite(span) && isUnder(orderSpans, span, reserve!),
    );
    expect(stockWrite, "products' database write under the command").toBeDefined();
    const created = orderSpans.find((span) => isMessage(span, 'order.created', 'publish'));
    expect(created?.service).toBe('orders');
    expect(created?.kind).toBe('producer');
    expect(isUnder(orderSpans, created!, gateway), 'the outbox relay publishes under the request').toBe(true);

    // order.paid has two consumers: products (paid stock is sold) and users (the shopper's e-mail), each in
    // the trace. The admin confirms the payment on the All Orders screen.
    const adminPage = await (await browser.newContext({ baseURL })).newPage();
    await startSignedIn(adminPage, admin);
    await adminPage.goto(`/all-orders?q=${orderId}`);
    const row = adminPage.getByRole('row').filter({ hasText: `Order ${orderId}` });
    const paid = await traceOfRequest(adminPage, 'PUT', new RegExp(`/api/orders/markpaid/${orderId}$`), () =>
      row.getByRole('button', { name: `Mark Paid order ${orderId}` }).click(),
    );
    await expect(adminPage.getByText('Order marked as paid successfully!')).toBeVisible();
    await adminPage.context().close();

    const paidSpans = await traceUntil(jaegerUrl, paid.traceId, (spans) =>
      spans.some(
        (span) =>
          isMessage(span, 'order.paid', 'process') &&
          spans.some(
            (write) => write.service === 'products' && isDbWrite(write) && isUnder(spans, write, span),
          ),
      ),
    );
    const paidGateway = expectLinksIntact(paidSpans, paid.parentId);
    const published = paidSpans.find((span) => isMessage(span, 'order.paid', 'publish'));
    expect(published?.service).toBe('orders');
    expect(isUnder(paidSpans, published!, paidGateway)).toBe(true);
    const consumed = paidSpans.find(
      (span) => isMessage(span, 'order.paid', 'process') && span.service === 'products',
    );
    expect(consumed, 'consumed by products').toBeDefined();
    expect(consumed?.kind).toBe('consumer');
    expect(consumed?.tags['messaging.destination.name']).toMatch(/(^|\.)order\.paid$/);
    expect(isUnder(paidSpans, consumed!, published!), 'the consumer continues the publish').toBe(true);

    // The trace viewer on Jaeger's port (tools/dev-stack/trace-viewer) finds the order's trace by its service
    // and shows it as one tree, the gateway's span first; a span opens to its attributes.
    const viewer = await (await browser.newContext()).newPage();
    await viewer.goto(`${jaegerUrl}/`);
    await viewer.getByLabel('Service').selectOption('orders');
    await viewer.getByLabel('At most').fill('500');
    await viewer.getByRole('button', { name: 'Find traces' }).click();
    await viewer.locator(`a[href="#/trace/${placed.traceId}"]`).click();
    const rows = viewer.getByRole('list', { name: 'Spans' }).getByRole('listitem');
    await expect.poll(() => rows.count()).toBeGreaterThanOrEqual(orderSpans.length);
    await expect(rows.first()).toHaveAttribute('data-service', 'gateway');
    const reserveRow = rows.filter({ hasText: /products\.reserve process/ }).filter({ hasText: 'consumer' });
    await expect(reserveRow).toHaveAttribute('data-service', 'products');
    await reserveRow.getByRole('button').click();
    await expect(reserveRow.getByRole('row', { name: /messaging\.system/ })).toContainText('nats');
    await viewer.context().close();
  });
});

/** One sample line of the Prometheus text format: its name, labels and value. */
interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

function parseMetrics(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)/.exec(line);
    if (!match) continue;
    const labels: Record<string, string> = {};
    for (const label of (match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) {
      labels[label[1]!] = label[2]!;
    }
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

/** Sum of the samples of `name` whose labels include `labels`. */
function valueOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  return samples
    .filter(
      (sample) =>
        sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
    )
    .reduce((sum, sample) => sum + sample.value, 0);
}

async function scrape(url: string): Promise<Sample[]> {
  const response = await fetch(url);
  expect(response.status, url).toBe(200);
  expect(response.headers.get('content-type') ?? '').toMatch(/^text\/plain/);
  return parseMetrics(await response.text());
}

type Part = (typeof SERVICES)[number] | 'gateway';

async function scrapeAll(stack: RunningStack): Promise<Record<Part, Sample[]>> {
  const parts = [...SERVICES, 'gateway'] as Part[];
  const all = await Promise.all(parts.map((part) => scrape(stack.metricsUrls[part])));
  return Object.fromEntries(parts.map((part, index) => [part, all[index]!])) as Record<Part, Sample[]>;
}

test.describe('metrics', () => {
  test("each service's and the gateway's counters move with known traffic, and VictoriaMetrics has them", async ({
    baseURL,
    stack,
  }) => {
    test.setTimeout(90_000);
    const { victoriaMetricsUrl } = observabilityOf(stack);
    const { product, shopper } = await setUpPurchase(baseURL!, 'Metered Scope', 1);
    const order = (quantity: number) =>
      fetch(`${baseURL}/api/orders`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${shopper.token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({
          orderItems: [{ _id: product._id, quantity }],
          shippingAddress: SHIPPING,
          paymentMethod: 'cashapp',
        }),
      });

    const before = await scrapeAll(stack);
    // Known traffic: one order placed (its stock held), one refused for stock, one refused sign-in, one
    // refused upload (text sent as a PNG: 415).
    expect((await order(1)).status).toBe(201);
    expect((await order(1)).status).toBe(409);
    const signIn = await fetch(`${baseURL}/api/users/signin`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: shopper.email, password: 'not-the-password' }),
    });
    expect(signIn.status).toBe(401);
    const form = new FormData();
    form.append('file', new Blob(['plain text, not an image'], { type: 'image/png' }), 'fake.png');
    const upload = await fetch(`${baseURL}/api/media`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${shopper.token}` },
      body: form,
    });
    expect(upload.status).toBe(415);
    const after = await scrapeAll(stack);

    const moved = (part: Part, name: string, labels: Record<string, string> = {}) =>
      valueOf(after[part], name, labels) - valueOf(before[part], name, labels);
    expect(moved('orders', 'shop_orders_placed_total')).toBe(1);
    const refusedForStock = after.orders.filter(
      (sample) =>
        sample.name === 'shop_orders_refused_total' &&
        sample.value - valueOf(before.orders, sample.name, sample.labels) === 1,
    );
    expect(refusedForStock.map((sample) => sample.labels['reason'])).toEqual([
      expect.stringMatching(/stock/i),
    ]);
    expect(moved('products', 'shop_stock_reservations_held_total')).toBe(1);
    expect(moved('users', 'shop_signins_refused_total')).toBe(1);
    expect(moved('media', 'shop_uploads_refused_total')).toBe(1);
    // Request rate, errors and duration per route, as OpenTelemetry names them.
    const placements = { http_route: '/api/orders', http_request_method: 'POST' };
    expect(
      moved('orders', 'http_server_request_duration_seconds_count', {
        ...placements,
        http_response_status_code: '409',
      }),
    ).toBe(1);
    expect(
      moved('gateway', 'kong_http_requests_total', { service: 'orders', route: 'orders-api', code: '409' }),
    ).toBe(1);
    expect(
      moved('gateway', 'kong_request_latency_ms_count', { service: 'orders', route: 'orders-api' }),
    ).toBe(2);
    // Every service also reports its runtime and its database pool.
    for (const service of SERVICES) {
      const names = new Set(after[service].map((sample) => sample.name));
      expect(
        [...names].some((name) => /eventloop.*delay/i.test(name)),
        `${service}: event-loop delay`,
      ).toBe(true);
      expect(
        [...names].some((name) => /heap/i.test(name)),
        `${service}: heap`,
      ).toBe(true);
      expect(
        [...names].some((name) => /^db_client_connection/.test(name)),
        `${service}: MongoDB pool`,
      ).toBe(true);
    }

    // VictoriaMetrics scrapes every part: the refusal shows there too, under its reason.
    await expect
      .poll(
        async () => {
          const { data } = await queryVictoriaMetrics(
            victoriaMetricsUrl,
            `sum(shop_orders_refused_total{job="orders",reason="${refusedForStock[0]?.labels['reason']}"})`,
          );
          return Number(data?.result[0]?.value[1] ?? 0);
        },
        { timeout: 30_000 },
      )
      .toBe(valueOf(after.orders, 'shop_orders_refused_total', refusedForStock[0]?.labels ?? {}));
    const { data: up } = await queryVictoriaMetrics(victoriaMetricsUrl, 'up == 1');
    expect(new Set(up?.result.map((series) => series.metric['job']))).toEqual(
      new Set([...SERVICES, 'gateway']),
    );
  });

  test("the alert rules of k8s/monitoring parse, and every metric they read is one the shop's parts export", async ({
    stack,
  }) => {
    const { victoriaMetricsUrl } = observabilityOf(stack);
    const file = join(REPO_ROOT, 'k8s', 'monitoring', 'prometheus-rule.yaml');
    const rule = parseAllDocuments(readFileSync(file, 'utf8'))[0]!.toJS() as {
      spec: { groups: { rules: { record?: string; alert?: string; expr: string }[] }[] };
    };
    const rules = rule.spec.groups.flatMap((group) => group.rules);
    expect(rules.length).toBeGreaterThan(0);
    // A series appears with its first sample: one placement, refused for want of a token, makes the
    // checkout's counters and histograms exist at the gateway and in orders.
    expect((await fetch(`${stack.url}/api/orders`, { method: 'POST' })).status).toBe(401);
    const exported = new Set(
      Object.values(await scrapeAll(stack)).flatMap((samples) => samples.map((s) => s.name)),
    );
    for (const { record, alert, expr } of rules) {
      const answer = await queryVictoriaMetrics(victoriaMetricsUrl, expr);
      expect(answer.httpStatus, `${record ?? alert}: ${answer.error}`).toBe(200);
      // Names with a colon are the recording rules' own; the others must come from a part of the shop.
      const names = [...expr.matchAll(/\b([a-z_][a-z0-9_]*)(?=\{|\[| *[)/<>=]|$)/g)]
        .map((match) => match[1]!)
        .filter((name) => /_(total|bucket|count|sum|seconds|bytes|pending|ms)$/.test(name));
      for (const name of names) expect(exported, `${record ?? alert} reads ${name}`).toContain(name);
    }
  });
});
