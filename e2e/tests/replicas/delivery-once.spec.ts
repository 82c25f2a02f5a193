import { ORDER_CREATED, ORDER_PAID, type Order } from '@shop/contracts';
import { MongoClient, ObjectId } from 'mongodb';
import { api, placeOrder, sorted, stockOf, storedOrdersOf } from '../support/orders';
import { durablesOf, eventsInStream, OUTBOX_RELAY_INTERVAL_MS, timesEach } from '../support/replicas';
import { expect, test, sleep } from './replicated-shop';

// Outbox relays and event consumers running on two copies of each service: every order stored once, every
// event published once and consumed once.

test('outbox relays and consumers on two copies neither lose nor duplicate: each order stored once, each event once, each consumed once', async ({
  replicated,
}) => {
  const { stack, admin, shoppers, nats, listProduct } = replicated;
  test.setTimeout(90_000);
  const ORDERS = 24;
  const product = await listProduct('Events', 1_000);
  const attempts = await Promise.all(
    shoppers.flatMap((shopper) =>
      Array.from({ length: ORDERS / shoppers.length }, () =>
        placeOrder(stack.url, shopper, product._id, crypto.randomUUID()),
      ),
    ),
  );
  expect(attempts.filter((attempt) => attempt.status !== 201)).toEqual([]);
  const ids = attempts.map((attempt) => attempt.orderId!);
  expect(new Set(ids).size).toBe(ORDERS);
  const stored = await storedOrdersOf(stack.url, admin, product._id);
  expect(sorted(stored.map((order) => order._id))).toEqual(sorted(ids));

  // Every order's `order.created` is in the stream once: each copy's relay publishes what its own
  // checkouts wrote and sweeps every outbox, the other copy's included.
  const once = (type: string) => async () => {
    const counts = timesEach(
      await eventsInStream(nats, type),
      ids,
      (event) => (event.data as { orderId: string }).orderId,
    );
    // Each order whose event is not there exactly once, with how many times it is.
    return [...counts].filter(([, times]) => times !== 1);
  };
  await expect
    .poll(once(ORDER_CREATED), { timeout: 30_000, message: 'orders without exactly one order.created' })
    .toEqual([]);

  // The admin confirms each payment (through the gateway: both copies of orders); each `order.paid`
  // (status Paid) is in the stream once and given to products' durable consumer once, shared by both
  // copies of products, and nothing is redelivered. The only other durable consumer of the subject is
  // users' e-mail to shoppers (its own tests count its messages; its sequence counts other subjects too).
  const PRODUCTS_CONSUMER = 'products-paid-orders';
  const productsConsumer = async () =>
    (await durablesOf(nats, ORDER_PAID)).filter((each) => each.name === PRODUCTS_CONSUMER);
  const consumersBefore = await productsConsumer();
  const deliveredBefore = consumersBefore.reduce((sum, each) => sum + each.delivered, 0);
  const redeliveredBefore = consumersBefore.reduce((sum, each) => sum + each.redelivered, 0);
  await Promise.all(
    ids.map(async (id) => {
      const paid = await api<Order>(`${stack.url}/api/orders/markpaid/${id}`, {
        method: 'PUT',
        token: admin.token,
        body: {},
      });
      expect(paid.status).toBe(200);
    }),
  );
  await expect
    .poll(once(ORDER_PAID), { timeout: 30_000, message: 'orders without exactly one order.paid' })
    .toEqual([]);
  const consumed = async () => {
    const consumers = await productsConsumer();
    return {
      durables: (await durablesOf(nats, ORDER_PAID)).map((each) => each.name).sort(),
      delivered: consumers.reduce((sum, each) => sum + each.delivered, 0) - deliveredBefore,
      redelivered: consumers.reduce((sum, each) => sum + each.redelivered, 0) - redeliveredBefore,
      waiting: consumers.reduce((sum, each) => sum + each.waiting, 0),
    };
  };
  const onceEach = {
    durables: [PRODUCTS_CONSUMER, 'users-order-mail'],
    delivered: ORDERS,
    redelivered: 0,
    waiting: 0,
  };
  await expect.poll(consumed, { timeout: 10_000 }).toEqual(onceEach);

  // The polls above stop at the first moment every count is 1; a relay that published an event again on
  // a later pass would pass them. So the counts are taken again after the relays' next passes: each copy's
  // relay, idle now, sweeps every outbox OUTBOX_RELAY_INTERVAL_MS after its last pass ended; the wait
  // covers RELAY_PASSES_WAITED of them (a pass that is slow on a busy machine delays the next).
  const RELAY_PASSES_WAITED = 5;
  await sleep(RELAY_PASSES_WAITED * OUTBOX_RELAY_INTERVAL_MS);
  expect(
    await once(ORDER_CREATED)(),
    'orders without exactly one order.created, after the next passes',
  ).toEqual([]);
  expect(await once(ORDER_PAID)(), 'orders without exactly one order.paid, after the next passes').toEqual(
    [],
  );
  expect(await consumed(), 'order.paid given to products, after the next passes').toEqual(onceEach);

  // Its effect, counted in products' own database: each reservation sold once, and its one hold kept on
  // the product until the order is delivered (decision 0024), none twice.
  const mongo = await MongoClient.connect(`mongodb://127.0.0.1:${stack.ports.mongo}`);
  try {
    const db = mongo.db('products');
    await expect
      .poll(
        () =>
          db.collection('stock_reservations').countDocuments({ _id: { $in: ids } as never, state: 'sold' }),
        {
          timeout: 10_000,
        },
      )
      .toBe(ORDERS);
    const holds = (await db.collection('products').findOne({ _id: new ObjectId(product._id) }))?.['holds'] as
      { id: string }[] | undefined;
    const mine = (holds ?? []).filter((hold) => ids.includes(hold.id)).map((hold) => hold.id);
    expect(mine.sort()).toEqual([...ids].sort());
  } finally {
    await mongo.close();
  }
  expect(await stockOf(stack.url, product._id)).toBe(1_000 - ORDERS);
});
