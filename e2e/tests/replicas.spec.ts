import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import type { Product, UserInfo } from '@shop/contracts';
import { type RunningStack, startStack } from '@shop/tools';
import { signUpThroughApi, TEST_SHIPPING_ADDRESS } from './fixtures';

/**
 * Replicas and a NATS cluster on one machine (issue 26 items 2 and 3), as `SHOP_REPLICAS=products=2,orders=2
 * SHOP_NATS_CLUSTER=3 npm start` runs them: two copies of products and of orders behind the gateway, each on
 * its own port, and three clustered nats-server nodes whose URLs every service is given. A stack of its
 * own: the other specs' shop runs one of each.
 */
let stack: RunningStack;

test.beforeAll(async () => {
  test.setTimeout(240_000);
  stack = await startStack({
    ports: 'free',
    replicas: { products: 2, orders: 2 },
    natsCluster: 3,
    observability: false,
  });
});

test.afterAll(async () => {
  await stack?.stop();
});

/** How many requests a copy of a service logged as completed for URLs starting with `url`. */
function completed(instance: string, url: string): number {
  const log = readFileSync(join(stack.logDir, `${instance}.log`), 'utf8');
  return log
    .split('\n')
    .filter((line) => line.includes('"request completed"') && line.includes(`"url":"${url}`)).length;
}

test('runs two copies of products and orders on their own ports, and both copies of products answer through the gateway', async () => {
  const copies = stack.instances.filter((each) => each.service === 'products' || each.service === 'orders');
  expect(copies.map((each) => each.name).sort()).toEqual(['orders', 'orders-2', 'products', 'products-2']);
  expect(new Set(copies.map((each) => each.port)).size).toBe(4);
  expect(stack.natsUrl.split(',')).toHaveLength(3);

  const url = '/api/products?limit=7';
  for (let n = 0; n < 20; n += 1) {
    const response = await fetch(`${stack.url}${url}`);
    expect(response.status).toBe(200);
    expect(((await response.json()) as Product[]).length).toBeGreaterThan(0);
  }
  // The services write their logs themselves, a moment after answering.
  await expect
    .poll(() => completed('products', url) + completed('products-2', url), { timeout: 5_000 })
    .toBe(20);
  expect(completed('products', url)).toBeGreaterThan(0);
  expect(completed('products-2', url)).toBeGreaterThan(0);
});

test('takes orders (orders asks products over NATS) after one NATS node is killed with kill -9', async () => {
  test.setTimeout(90_000);
  const shopper: UserInfo = await signUpThroughApi(stack.url);
  const [product] = (await (await fetch(`${stack.url}/api/products`)).json()) as Product[];
  const node = stack.pidOf('nats-1');
  expect(node).toBeDefined();
  process.kill(node!, 'SIGKILL');

  const order = async (key: string) =>
    fetch(`${stack.url}/api/orders`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Authorization: `Bearer ${shopper.token}`,
        'Idempotency-Key': key,
      },
      body: JSON.stringify({
        orderItems: [{ _id: product!._id, quantity: 1 }],
        shippingAddress: { fullName: shopper.name, ...TEST_SHIPPING_ADDRESS },
        paymentMethod: 'bitcoin',
      }),
    });
  // Right after the kill a client may still be reconnecting: a refusal is a JSON 503 and a retry with the
  // same key ends in the order; each copy of orders must then take orders.
  for (const key of ['after-kill-1', 'after-kill-2', 'after-kill-3', 'after-kill-4']) {
    await expect
      .poll(
        async () => {
          const response = await order(key);
          expect([201, 503]).toContain(response.status);
          if (response.status === 503) {
            expect(typeof ((await response.json()) as { message?: unknown }).message).toBe('string');
          }
          return response.status;
        },
        { timeout: 30_000, intervals: [500] },
      )
      .toBe(201);
  }
  await expect
    .poll(() => completed('orders', '/api/orders') > 0 && completed('orders-2', '/api/orders') > 0, {
      timeout: 5_000,
    })
    .toBe(true);
  for (const instance of stack.instances) {
    const ready = await fetch(`http://127.0.0.1:${instance.port}/health/ready`);
    expect(ready.status, instance.name).toBe(200);
  }
});
