import { randomBytes } from 'node:crypto';
import type { Order, Product, UserInfo } from '@shop/contracts';
import { TEST_SHIPPING_ADDRESS, callApi, expect, signUpThroughApi, test } from './fixtures';
import { openFromAdminMenu } from './support/admin';
import { createListing, uploadedPicture } from './support/listings';
import { api } from './support/orders';
import { isUnder, metricValue, observabilityOf, traceUntil } from './support/telemetry';

// docs/observability.md, "Fault flags": an admin turns a failure on in the running shop from the Fault
// Flags screen, every service follows, the refusals show in the traces and metrics, the audit trail
// records the switch, and turning it off restores the shop with nothing lost.

async function createProduct(baseURL: string, admin: UserInfo, countInStock: number): Promise<Product> {
  return createListing(baseURL, admin.token, {
    name: `Flag drill ${Date.now().toString(36)} ${countInStock}`,
    image: await uploadedPicture(baseURL, admin.token, 'flag.png'),
    price: 12,
    countInStock,
    description: 'Made for the fault flags test',
  });
}

/** `POST /api/orders` of one unit, under a traceparent of the test's own: its status, message and trace id. */
async function order(baseURL: string, shopper: UserInfo, productId: string) {
  const traceId = randomBytes(16).toString('hex');
  const response = await fetch(`${baseURL}/api/orders`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Authorization: `Bearer ${shopper.token}`,
      traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01`,
    },
    body: JSON.stringify({
      orderItems: [{ _id: productId, quantity: 1 }],
      shippingAddress: { fullName: shopper.name, ...TEST_SHIPPING_ADDRESS },
      paymentMethod: 'bitcoin',
    }),
  });
  const body = (await response.json()) as { message?: string; _id?: string };
  return { status: response.status, message: body.message, orderId: body._id, traceId };
}

test('an admin turns order refusals on from the Fault Flags screen, sees them in traces and metrics, and off again with nothing lost', async ({
  admin,
  page,
  baseURL,
  stack,
}) => {
  test.setTimeout(120_000);
  const { jaegerUrl } = observabilityOf(stack);
  const shopper = await signUpThroughApi(baseURL!, { name: 'Flag Shopper' });
  const product = await createProduct(baseURL!, admin, 5);
  // A product listed with one unit, bought by another shopper: sold out. An order for it takes no stock:
  // 409 while orders takes orders, 503 while it refuses them.
  const soldOut = await createProduct(baseURL!, admin, 1);
  const firstBuyer = await signUpThroughApi(baseURL!, { name: 'First Buyer' });
  expect((await order(baseURL!, firstBuyer, soldOut._id)).status).toBe(201);
  const probe = async () => (await order(baseURL!, shopper, soldOut._id)).status;

  expect((await api(`${baseURL}/api/data/flags`, { token: shopper.token })).status).toBe(403);

  await openFromAdminMenu(page, admin, 'Fault Flags');
  const state = page.getByRole('combobox', { name: 'State of orderPlacementFailure' });
  await expect(state).toHaveValue('off');
  const refusedBefore = await metricValue(stack.metricsUrls.orders, 'shop_orders_refused_total', {
    reason: 'unavailable',
  });

  try {
    await state.selectOption({ label: '100%' });
    await expect(page.getByText('orderPlacementFailure switched to 100%')).toBeVisible();
    await expect.poll(probe, { timeout: 10_000 }).toBe(503);

    const refused = await order(baseURL!, shopper, product._id);
    expect(refused).toMatchObject({
      status: 503,
      message: 'Orders cannot be taken right now, please try again',
    });

    // The refused order's trace: the flag's evaluation inside orders' handling of it, variant and all.
    const spans = await traceUntil(jaegerUrl, refused.traceId, (found) =>
      found.some((span) => span.name === 'feature_flag.evaluation'),
    );
    const evaluation = spans.find((span) => span.name === 'feature_flag.evaluation')!;
    const server = spans.find((span) => span.service === 'orders' && span.name === 'POST /api/orders');
    expect(evaluation.service).toBe('orders');
    expect(evaluation.tags).toMatchObject({
      'feature_flag.key': 'orderPlacementFailure',
      'feature_flag.result.variant': '100%',
      'feature_flag.provider.name': 'flagd',
    });
    expect(server, 'the request span of orders').toBeDefined();
    expect(isUnder(spans, evaluation, server!)).toBe(true);

    // The metrics: refusals counted by reason, and the flag's evaluations by variant.
    expect(
      await metricValue(stack.metricsUrls.orders, 'shop_orders_refused_total', { reason: 'unavailable' }),
    ).toBeGreaterThanOrEqual(refusedBefore + 2);
    expect(
      await metricValue(stack.metricsUrls.orders, 'feature_flag_evaluation_success_total', {
        feature_flag_key: 'orderPlacementFailure',
        feature_flag_result_variant: '100%',
      }),
    ).toBeGreaterThanOrEqual(2);

    await state.selectOption({ label: 'Off' });
    await expect(page.getByText('orderPlacementFailure is off')).toBeVisible();
  } finally {
    // Whatever failed above, the rest of the suite runs on a shop that takes orders.
    await api(`${baseURL}/api/data/flags/orderPlacementFailure`, {
      method: 'PUT',
      token: admin.token,
      body: { variant: 'off' },
    });
  }
  await expect.poll(probe, { timeout: 10_000 }).toBe(409);

  // Nothing lost: the refused orders took nothing, the one taken now is stored once.
  const placed = await order(baseURL!, shopper, product._id);
  expect(placed.status).toBe(201);
  const mine = await callApi<Order[]>(baseURL!, 'GET', '/api/orders/mine', shopper.token);
  expect(mine.map((each) => each._id)).toEqual([placed.orderId]);
  expect((await callApi<Product>(baseURL!, 'GET', `/api/products/${product._id}`)).countInStock).toBe(4);

  // The audit trail has both switches, by this admin (it is written from their events, a moment later).
  const switches = async () =>
    (
      await callApi<{ actorId: string; before: unknown; after: unknown }[]>(
        baseURL!,
        'GET',
        '/api/data/audit?action=flag.switched&targetId=orderPlacementFailure',
        admin.token,
      )
    )
      .slice(0, 2)
      .map((entry) => [entry.actorId, entry.before, entry.after]);
  await expect.poll(switches).toEqual([
    [admin._id, { variant: '100%' }, { variant: 'off' }],
    [admin._id, { variant: 'off' }, { variant: '100%' }],
  ]);
});
