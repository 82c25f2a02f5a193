import { type Order, type Product } from '@shop/contracts';
import { api, placeOrder, sorted, stockOf, storedOrdersOf } from '../support/orders';
import { copiesOf, directUrl } from '../support/replicas';
import { expect, test, minus, INVALIDATED_WITHIN_MS } from './replicated-shop';

// Two copies of products and of orders behind the gateway: both answer, they never oversell the last units
// between them, and an admin's change reaches every copy's catalogue cache through its events.

test('runs two copies of products and orders on their own ports, and both copies of products answer through the gateway', async ({
  replicated,
}) => {
  const { stack, completed } = replicated;
  const copies = stack.instances.filter((each) => each.service === 'products' || each.service === 'orders');
  expect(copies.map((each) => each.name).sort()).toEqual(['orders', 'orders-2', 'products', 'products-2']);
  expect(new Set(copies.map((each) => each.port)).size).toBe(4);
  expect(stack.natsUrl.split(',')).toHaveLength(3);

  const url = '/api/products?limit=7';
  const since = Date.now();
  for (let n = 0; n < 20; n += 1) {
    const response = await fetch(`${stack.url}${url}`);
    expect(response.status).toBe(200);
    expect(((await response.json()) as Product[]).length).toBeGreaterThan(0);
  }
  // The gateway writes its access lines up to a second after answering; the query is not logged.
  const path = '/api/products';
  await expect
    .poll(() => completed('products', since, path) + completed('products-2', since, path), { timeout: 5_000 })
    .toBe(20);
  expect(completed('products', since, path)).toBeGreaterThan(0);
  expect(completed('products-2', since, path)).toBeGreaterThan(0);
});

test('no oversell: buyers racing through both copies of orders and products get exactly the units in stock', async ({
  replicated,
}) => {
  const { stack, admin, shoppers, listProduct, countersOf } = replicated;
  const STOCK = 12;
  const product = await listProduct('Race', STOCK);
  const counters = () =>
    Promise.all([
      countersOf('orders', 'shop_orders_placed_total'),
      countersOf('orders', 'shop_orders_refused_total'),
      countersOf('products', 'shop_stock_reservations_held_total'),
    ]);
  const before = await counters();

  // Three times as many buyers as units, all at once: nine per shopper, each with a key of its own.
  const attempts = await Promise.all(
    shoppers.flatMap((shopper) =>
      Array.from({ length: 9 }, () => placeOrder(stack.url, shopper, product._id, crypto.randomUUID())),
    ),
  );
  const accepted = attempts.filter((attempt) => attempt.status === 201);
  const refused = attempts.filter((attempt) => attempt.status !== 201);
  expect(accepted).toHaveLength(STOCK);
  expect(
    refused.filter((attempt) => attempt.status !== 409 || !/out of stock/i.test(attempt.message ?? '')),
    'refusals other than a 409 "out of stock"',
  ).toEqual([]);

  // The stock is 0 on each copy of products, asked on its own port; exactly the answered orders are stored.
  for (const copy of copiesOf(stack, 'products')) {
    await expect
      .poll(() => stockOf(directUrl(copy), product._id), { timeout: INVALIDATED_WITHIN_MS })
      .toBe(0);
  }
  const stored = await storedOrdersOf(stack.url, admin, product._id);
  expect(sorted(stored.map((order) => order._id))).toEqual(
    sorted(accepted.map((attempt) => attempt.orderId!)),
  );

  // Both copies of orders took checkouts, and both copies of products took stock (each copy's own metrics).
  const [placed, refusedBy, held] = await counters();
  const took = minus(placed, before[0]).map((value, index) => value + minus(refusedBy, before[1])[index]!);
  test.info().annotations.push({
    type: 'race across copies',
    description: `checkouts per copy of orders ${took.join(' + ')}, reservations held per copy of products ${minus(held, before[2]).join(' + ')}`,
  });
  expect(minus(placed, before[0]).reduce((sum, value) => sum + value, 0)).toBe(STOCK);
  expect(minus(held, before[2]).reduce((sum, value) => sum + value, 0)).toBe(STOCK);
  for (const count of [...took, ...minus(held, before[2])]) expect(count).toBeGreaterThan(0);
});

test("an admin's change is on every copy of products, each asked on its own port, dropped from their caches by its events (not left to expire); a cart's order goes through either copy of orders", async ({
  replicated,
}) => {
  const { stack, admin, shoppers, listProduct } = replicated;
  const product = await listProduct('Fresh', 5);
  const products = copiesOf(stack, 'products');
  const read = async (url: string) => (await api<Product>(`${url}/api/products/${product._id}`)).body;
  // Each copy answers the product twice, so its catalogue cache holds the answer.
  for (const copy of products) {
    for (let n = 0; n < 2; n += 1) expect((await read(directUrl(copy))).name).toBe(product.name);
  }

  const { _id: id, rating: _rating, numReviews: _reviews, ...input } = product;
  const renamed = `${product.name} Mk II`;
  const changed = await api<Product>(`${stack.url}/api/products/update/${id}`, {
    method: 'POST',
    token: admin.token,
    body: { ...input, name: renamed, price: 149.5 },
  });
  expect(changed.status).toBe(200);
  const changedAt = Date.now();
  const seenAfter = await Promise.all(
    products.map(async (copy) => {
      await expect
        .poll(
          async () => ({
            name: (await read(directUrl(copy))).name,
            price: (await read(directUrl(copy))).price,
          }),
          { timeout: INVALIDATED_WITHIN_MS, intervals: [50] },
        )
        .toEqual({ name: renamed, price: 149.5 });
      return Date.now() - changedAt;
    }),
  );
  test.info().annotations.push({
    type: 'freshness per copy of products',
    description: seenAfter.map((ms, index) => `${products[index]!.name} ${ms} ms`).join(', '),
  });

  // A cart is the browser's: its lines are read from whichever copy of products answers, and the order is
  // placed through whichever copy of orders answers. Each copy of orders here, asked directly, takes one.
  const [shopper] = shoppers;
  for (const copy of products) expect((await read(directUrl(copy))).countInStock).toBe(5);
  for (const copy of copiesOf(stack, 'orders')) {
    const placed = await placeOrder(directUrl(copy), shopper!, product._id, crypto.randomUUID(), 2);
    expect(placed.status, `order through ${copy.name}`).toBe(201);
    const mine = await api<Order>(`${stack.url}/api/orders/${placed.orderId}`, { token: shopper!.token });
    expect(mine.body.orderItems).toMatchObject([
      { _id: product._id, quantity: 2, name: renamed, price: 149.5 },
    ]);
  }
  // The stock taken by whichever copy of products reserved it is seen by both, before their caches'
  // backstop could have dropped the answers read above.
  for (const copy of products) {
    await expect
      .poll(async () => (await read(directUrl(copy))).countInStock, {
        timeout: INVALIDATED_WITHIN_MS,
        intervals: [50],
      })
      .toBe(1);
  }
});
