import { activeAlerts, parseLoadSettings, startLoad } from '@shop/dev-stack';
import { SEEDED_ADMIN, expect, signInThroughApi, test } from './fixtures';
import { api } from './support/orders';
import { observabilityOf } from './support/telemetry';

// docs/observability.md, "Alerts locally": the alert rules the cluster ships (k8s/monitoring), evaluated by
// vmalert against the stack's VictoriaMetrics with every window TEST_ALERTS_SPEEDUP times shorter, fire on
// a failure turned on under steady load, and resolve once it is off.

const ALERT = 'CheckoutAvailabilityBudgetBurningFast';

test(`orders refused at 50% under the load generator fire ${ALERT}, which resolves once they are off`, async ({
  baseURL,
  stack,
}) => {
  // The long window is an hour / TEST_ALERTS_SPEEDUP (5 minutes): the alert needs it to burn too.
  test.setTimeout(12 * 60_000);
  const { alertsUrl } = observabilityOf(stack);
  const admin = await signInThroughApi(baseURL!, SEEDED_ADMIN.email, SEEDED_ADMIN.password);
  const refusals = (variant: string) =>
    api(`${baseURL}/api/data/flags/orderPlacementFailure`, {
      method: 'PUT',
      token: admin.token,
      body: { variant },
    });
  const state = async () =>
    (await activeAlerts(alertsUrl)).find((alert) => alert.name === ALERT)?.state ?? 'inactive';

  // Shoppers checking out most of the time, each order cancelled after (its stock goes back).
  const load = await startLoad({
    url: baseURL!,
    settings: parseLoadSettings('rate=8,minutes=10,checkout=30'),
  });
  try {
    // Earlier tests' failures may still be in the windows: start from a quiet alert.
    await expect.poll(state, { timeout: 5 * 60_000, intervals: [2_000] }).toBe('inactive');
    expect((await refusals('50%')).status).toBe(200);
    await expect.poll(state, { timeout: 5 * 60_000, intervals: [2_000] }).toBe('firing');
    const [firing] = (await activeAlerts(alertsUrl)).filter((alert) => alert.name === ALERT);
    expect(firing!.labels).toMatchObject({ severity: 'page', slo: 'checkout-availability' });

    expect((await refusals('off')).status).toBe(200);
    // The short window (5 minutes / TEST_ALERTS_SPEEDUP) empties of refusals: the alert ends.
    await expect.poll(state, { timeout: 3 * 60_000, intervals: [2_000] }).toBe('inactive');
  } finally {
    await refusals('off');
    await load.stop();
  }
  const { journeys, statuses } = load.summary();
  expect(journeys.checkout).toBeGreaterThan(0);
  expect(statuses['503'] ?? 0, 'orders refused while the flag was on').toBeGreaterThan(0);
  expect(statuses['201'] ?? 0, 'orders taken before and after').toBeGreaterThan(0);
});
