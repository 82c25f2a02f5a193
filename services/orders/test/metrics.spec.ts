// First: the SDK of this process (the orders service runs in it) starts before anything it instruments.
import { telemetry } from './support/telemetry';
import { freePort, until } from '@shop/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OrdersHarness, startOrdersHarness } from './support/orders.harness';

let h: OrdersHarness;
let ordersMetrics: string;
let productsMetrics: string;

beforeAll(async () => {
  const [ordersPort, productsPort] = [await freePort(), await freePort()];
  ordersMetrics = `http://127.0.0.1:${ordersPort}/metrics`;
  productsMetrics = `http://127.0.0.1:${productsPort}/metrics`;
  h = await startOrdersHarness({
    env: { METRICS_PORT: String(ordersPort) },
    productsEnv: { METRICS_PORT: String(productsPort) },
  });
});

afterAll(async () => {
  await h?.close();
  await telemetry.shutdown();
});

/** The sum of the Prometheus samples `name` whose labels include `labels` (0 when there is none). */
async function sample(url: string, name: string, labels: Record<string, string> = {}): Promise<number> {
  const text = await (await fetch(url)).text();
  return text
    .split('\n')
    .filter(
      (each) =>
        (each.startsWith(`${name}{`) || each.startsWith(`${name} `)) &&
        Object.entries(labels).every(([key, value]) => each.includes(`${key}="${value}"`)),
    )
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
}

describe('the shop counters move with known traffic', () => {
  it('counts a placed order, a refusal for stock under its reason, and the reservations', async () => {
    const placed = () => sample(ordersMetrics, 'shop_orders_placed_total');
    const outOfStock = () => sample(ordersMetrics, 'shop_orders_refused_total', { reason: 'out_of_stock' });
    const unknown = () => sample(ordersMetrics, 'shop_orders_refused_total', { reason: 'unknown_product' });
    const held = () => sample(productsMetrics, 'shop_stock_reservations_held_total');
    const released = () => sample(productsMetrics, 'shop_stock_reservations_released_total');
    const before = {
      placed: await placed(),
      outOfStock: await outOfStock(),
      unknown: await unknown(),
      held: await held(),
      released: await released(),
    };

    const product = await h.createProduct({ price: 5, countInStock: 1 });
    const { token } = await h.customer();
    const order = await h.placeOrder(token, [{ _id: product._id, quantity: 1 }]);
    expect(order.status).toBe(201);
    const refused = await h.placeOrder(token, [{ _id: product._id, quantity: 1 }]);
    expect(refused.status).toBe(409);
    const missing = await h.placeOrder(token, [{ _id: '65a1f0c2e4b0a1b2c3d4e5f0', quantity: 1 }]);
    expect(missing.status).toBe(404);
    const deleted = await h.deleteOrder(order.body._id);
    expect(deleted.status).toBe(200);

    expect(await placed()).toBe(before.placed + 1);
    expect(await outOfStock()).toBe(before.outOfStock + 1);
    expect(await unknown()).toBe(before.unknown + 1);
    expect(await held()).toBe(before.held + 1);
    // Deleting the unpaid order gives its stock back (retried in the background until products answers).
    await until(async () => (await released()) === before.released + 1);
  });

  it('measures each route of both services and their runtime', async () => {
    const requests = (url: string, labels: Record<string, string>) =>
      sample(url, 'http_server_request_duration_seconds_count', labels);
    const placing = { http_route: '/api/orders', http_request_method: 'POST' };
    const listing = { http_route: '/api/listings/create' };
    // Counted from this test's own requests, one of each, not from what the tests before it left
    // (a count above 0 would pass with any earlier traffic, or with every request under one route).
    const before = {
      placing: await requests(ordersMetrics, placing),
      listing: await requests(productsMetrics, listing),
    };
    const product = await h.createProduct({ price: 5, countInStock: 1 });
    const { token } = await h.customer();
    expect((await h.placeOrder(token, [{ _id: product._id, quantity: 1 }])).status).toBe(201);
    await expect.poll(() => requests(ordersMetrics, placing)).toBe(before.placing + 1);
    await expect.poll(() => requests(productsMetrics, listing)).toBe(before.listing + 1);
    expect(await sample(productsMetrics, 'nodejs_eventloop_delay_p99_seconds')).toBeGreaterThan(0);
    // The pool's connections, idle and used.
    expect(await sample(productsMetrics, 'db_client_connection_count')).toBeGreaterThan(0);
  });
});
