import type { Order, Product, UserInfo } from '@shop/contracts';
import { activeAlerts, describeSummary, parseLoadSettings, startLoad } from '@shop/dev-stack';
import {
  TEST_ALERTS_SPEEDUP,
  TEST_SHIPPING_ADDRESS,
  callApi,
  expect,
  signUpThroughApi,
  test,
} from './fixtures';
import { switchFlag } from './support/flags';
import { createListing } from './support/listings';
import { metricSample, metricValue, observabilityOf } from './support/telemetry';

// docs/observability.md, "Alerts locally": the alert rules the cluster ships (k8s/monitoring), evaluated by
// vmalert against the stack's VictoriaMetrics with every window (and every age threshold) TEST_ALERTS_SPEEDUP
// times shorter, fire on a failure turned on under steady load, and resolve once it is off, nothing lost.

/** A window, `for` or age of the shipped rules as the test stack's vmalert has it (TEST_ALERTS_SPEEDUP). */
const windowMs = (minutes: number) => (minutes * 60_000) / TEST_ALERTS_SPEEDUP;

/**
 * The outbox and consumer alerts fire on an age over 5 minutes held for 5 minutes (12.5 s and 12.5 s here),
 * seen through a scrape every 2 s and an evaluation every second: four times that is allowed.
 */
const AGE_ALERT_FIRES_MS = 4 * (windowMs(5) + windowMs(5));

/** The age threshold of those two alerts on the test stack, in seconds (300 s as shipped). */
const AGE_THRESHOLD_SECONDS = windowMs(5) / 1_000;

/** What vmalert says of one alert now: pending, firing, or inactive when it does not list it. */
const alertState = (alertsUrl: string, name: string) => async () =>
  (await activeAlerts(alertsUrl)).find((alert) => alert.name === name)?.state ?? 'inactive';

/** Waits until the alert is in `state`, and prints how long that took (the test's report says when each came). */
async function untilAlert(alertsUrl: string, name: string, state: string, timeoutMs: number) {
  const start = Date.now();
  await expect.poll(alertState(alertsUrl, name), { timeout: timeoutMs, intervals: [2_000] }).toBe(state);
  console.log(`${name} ${state} after ${((Date.now() - start) / 1_000).toFixed(0)} s`);
}

/** A product of the test's own with `countInStock` units, pictured like the first seeded one. */
function createProduct(baseURL: string, admin: UserInfo, name: string, countInStock: number) {
  return createListing(baseURL, admin.token, {
    name: `${name} ${Date.now().toString(36)}`,
    price: 9,
    countInStock,
    description: 'Made for the alerts test',
  });
}

test('orders refused at 50% under the load generator fire CheckoutAvailabilityBudgetBurningFast, which resolves once they are off', async ({
  admin,
  baseURL,
  stack,
}) => {
  // It fires once the hour's window (an hour / TEST_ALERTS_SPEEDUP: 150 s) burns too, and ends once the
  // slower clause's short window (30 minutes / TEST_ALERTS_SPEEDUP: 75 s) holds few enough refusals, about
  // that long after they stop: twice that window is allowed for each.
  const [fireMs, endMs] = [windowMs(60), 2 * windowMs(30)];
  test.setTimeout(2 * endMs + fireMs + 60_000);
  const ALERT = 'CheckoutAvailabilityBudgetBurningFast';
  const { alertsUrl } = observabilityOf(stack);

  // Shoppers checking out most of the time, each order cancelled after (its stock goes back).
  const load = await startLoad({
    url: baseURL!,
    settings: parseLoadSettings('rate=6,minutes=15,checkout=30'),
  });
  try {
    // Earlier tests' failures may still be in the windows: start from a quiet alert.
    await untilAlert(alertsUrl, ALERT, 'inactive', endMs);
    await switchFlag(baseURL!, admin.token, 'orderPlacementFailure', '50%');
    await untilAlert(alertsUrl, ALERT, 'firing', fireMs);
    const [firing] = (await activeAlerts(alertsUrl)).filter((alert) => alert.name === ALERT);
    expect(firing!.labels).toMatchObject({ severity: 'page', slo: 'checkout-availability' });

    await switchFlag(baseURL!, admin.token, 'orderPlacementFailure', 'off');
    await untilAlert(alertsUrl, ALERT, 'inactive', endMs);
  } finally {
    await switchFlag(baseURL!, admin.token, 'orderPlacementFailure', 'off');
    await load.stop();
    console.log(`load: ${describeSummary(load.summary())}`);
  }
  const { journeys, statuses } = load.summary();
  expect(journeys.checkout).toBeGreaterThan(0);
  expect(statuses['503'] ?? 0, 'orders refused while the flag was on').toBeGreaterThan(0);
  expect(statuses['201'] ?? 0, 'orders taken before and after').toBeGreaterThan(0);
});

test('events held by a paused outbox relay fire ShopOutboxStuck, and all go out once it is off', async ({
  admin,
  baseURL,
  stack,
}) => {
  // The age threshold is 300 s / TEST_ALERTS_SPEEDUP (12.5 s), held for `for` 5 minutes / the same.
  test.setTimeout(10 * 60_000);
  const ALERT = 'ShopOutboxStuck';
  const { alertsUrl } = observabilityOf(stack);
  const audited = async (id: string) =>
    (
      await callApi<unknown[]>(
        baseURL!,
        'GET',
        `/api/data/audit?action=product.created&targetId=${id}`,
        admin.token,
      )
    ).length;
  const backlog = () =>
    metricSample(stack.metricsUrls.products, 'shop_outbox_backlog', { aggregate: 'Product' });
  await untilAlert(alertsUrl, ALERT, 'inactive', 3 * 60_000);

  const pausedPasses = () =>
    metricValue(stack.metricsUrls.products, 'feature_flag_evaluation_success_total', {
      feature_flag_key: 'outboxRelayPaused',
      feature_flag_result_variant: 'on',
    });
  const pausedBefore = await pausedPasses();
  let product: Product | undefined;
  try {
    await switchFlag(baseURL!, admin.token, 'outboxRelayPaused', 'on');
    // Products' relay has taken the flag once it has evaluated it (each pass does while it is on).
    await expect.poll(pausedPasses).toBeGreaterThan(pausedBefore);
    // An admin's new product is saved, and its event (the audit trail's entry) waits in the outbox.
    product = await createProduct(baseURL!, admin, 'Held event', 3);
    await expect.poll(backlog).toBeGreaterThanOrEqual(1);
    await untilAlert(alertsUrl, ALERT, 'firing', AGE_ALERT_FIRES_MS);
    const [firing] = (await activeAlerts(alertsUrl)).filter((alert) => alert.name === ALERT);
    expect(firing!.labels).toMatchObject({ severity: 'ticket' });
    expect(Number(firing!.value), 'the oldest event age, past the threshold').toBeGreaterThan(
      AGE_THRESHOLD_SECONDS,
    );
    expect(await backlog(), 'events waiting in products’ outbox').toBeGreaterThanOrEqual(1);
    expect(await audited(product._id), 'the held event has not reached the audit trail').toBe(0);
  } finally {
    await switchFlag(baseURL!, admin.token, 'outboxRelayPaused', 'off');
  }
  // Off: the relay sends what waited, the alert ends, and the event arrived once.
  await expect.poll(backlog, { timeout: 30_000 }).toBe(0);
  await untilAlert(alertsUrl, ALERT, 'inactive', 2 * 60_000);
  await expect.poll(() => audited(product!._id)).toBe(1);
});

test('order payments products takes late under load fire ShopJetStreamConsumerBehind, which resolves once it catches up, every payment heard', async ({
  admin,
  baseURL,
  stack,
}) => {
  // The age threshold is 300 s / TEST_ALERTS_SPEEDUP (12.5 s), held for `for` 5 minutes / the same.
  test.setTimeout(11 * 60_000);
  const CONSUMER = 'products-paid-orders';
  const ORDERS = 20;
  const ALERT = 'ShopJetStreamConsumerBehind';
  const { alertsUrl } = observabilityOf(stack);
  const lag = (name: string) => metricSample(stack.metricsUrls.products, name, { consumer: CONSUMER });
  const shopper = await signUpThroughApi(baseURL!, { name: 'Lag Shopper' });
  const product = await createProduct(baseURL!, admin, 'Late payments', ORDERS + 5);
  const orders: Order[] = [];
  for (let n = 0; n < ORDERS; n += 1) {
    orders.push(
      await callApi<Order>(baseURL!, 'POST', '/api/orders', shopper.token, {
        orderItems: [{ _id: product._id, quantity: 1 }],
        shippingAddress: { fullName: shopper.name, ...TEST_SHIPPING_ADDRESS },
        paymentMethod: 'bitcoin',
      }),
    );
  }
  await untilAlert(alertsUrl, ALERT, 'inactive', 3 * 60_000);

  // Shoppers browsing, and one in Chromium, while products falls behind.
  const load = await startLoad({ url: baseURL!, settings: parseLoadSettings('rate=2,minutes=8,browser') });
  try {
    // Each payment an admin confirms is an order.paid event products waits 5 s before taking; they come
    // every 2 s, so the oldest one waiting grows older.
    await switchFlag(baseURL!, admin.token, 'productsConsumerLag', '5s');
    for (const order of orders) {
      await callApi<Order>(baseURL!, 'PUT', `/api/orders/markpaid/${order._id}`, admin.token);
      await new Promise((resolve) => setTimeout(resolve, 2_000));
    }
    await untilAlert(alertsUrl, ALERT, 'firing', AGE_ALERT_FIRES_MS);
    const [firing] = (await activeAlerts(alertsUrl)).filter((alert) => alert.name === ALERT);
    expect(firing!.labels).toMatchObject({ severity: 'ticket', consumer: CONSUMER });
  } finally {
    await switchFlag(baseURL!, admin.token, 'productsConsumerLag', 'off');
  }
  try {
    // Off: products takes the rest at once, nothing waits, and the alert ends.
    await expect
      .poll(
        async () => [
          await lag('shop_jetstream_consumer_pending'),
          await lag('shop_jetstream_consumer_ack_pending'),
        ],
        {
          timeout: 60_000,
        },
      )
      .toEqual([0, 0]);
    expect(await lag('shop_jetstream_consumer_oldest_pending_age_seconds')).toBe(0);
    await untilAlert(alertsUrl, ALERT, 'inactive', 2 * 60_000);
  } finally {
    await load.stop();
    console.log(`load: ${describeSummary(load.summary())}`);
  }
  expect(
    load.summary().browserWalks,
    'the shopper in Chromium walked home, product and cart',
  ).toBeGreaterThan(0);
  // Nothing lost: every payment was acknowledged above (a handler acknowledges only once it has sold the
  // order's stock), and the stock is exact (taken at placement; a sale keeps it taken).
  expect((await callApi<Product>(baseURL!, 'GET', `/api/products/${product._id}`)).countInStock).toBe(5);
});
