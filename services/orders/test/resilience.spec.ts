import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type EventEnvelope, ORDER_PAID, type Order, type Product } from '@shop/contracts';
import { type ConsumerHandle, JetStreamEvents } from '@shop/service-kit';
import { type EmbeddedNats, freePort, startEmbeddedNats, uniqueDbName, until } from '@shop/testing';
import { Types } from 'mongoose';
import { connect } from 'nats';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  NATS_REQUEST_TIMEOUT_MS,
  type OrdersHarness,
  RECEIPT,
  startOrdersHarness,
} from './support/orders.harness';

let h: OrdersHarness;
let nats: EmbeddedNats;
let natsPort: number;
const storeDir = mkdtempSync(join(tmpdir(), 'orders-resilience-nats-'));

// This file stops and restarts NATS, so it runs on a NATS of its own with a fixed port and store.
beforeAll(async () => {
  natsPort = await freePort();
  nats = await startEmbeddedNats({ port: natsPort, storeDir });
  h = await startOrdersHarness({ nats });
});

afterAll(async () => {
  await h?.close();
  await nats?.stop();
  rmSync(storeDir, { recursive: true, force: true });
});

async function place(token: string, product: Product) {
  const started = Date.now();
  const answer = await h.placeOrder(token, [{ _id: product._id, quantity: 1 }]);
  return { ...answer, ms: Date.now() - started };
}

/**
 * An order placed (201), then `outage`, then a second checkout of the same product: refused with a 503,
 * storing nothing. Answers the product, the buyer, the placed order and the refused checkout.
 */
async function refusedAfter(outage: () => Promise<unknown>, price: number) {
  const product = await h.createProduct({ price, countInStock: 5 });
  const buyer = await h.customer();
  const placed = await place(buyer.token, product);
  expect(placed.status).toBe(201);

  await outage();
  const ordersBefore = await h.storedOrders();
  const refused = await place(buyer.token, product);
  expect(refused.status).toBe(503);
  expect(await h.storedOrders()).toBe(ordersBefore);
  return { product, buyer, placed, refused, ordersBefore };
}

describe('when the products service stops', () => {
  it('answers 503 at once, leaves nothing half-done, and takes orders again after the restart', async () => {
    const { product, buyer, placed, refused, ordersBefore } = await refusedAfter(() => h.stopProducts(), 12);
    expect(refused.body.message).toMatch(
      /^The products service (is unavailable|did not answer in time), please try again$/,
    );
    expect(refused.ms).toBeLessThan(NATS_REQUEST_TIMEOUT_MS + 1_000);

    // What does not need the catalogue keeps working.
    expect((await h.call('GET', `/api/orders/${placed.body._id}`, { token: buyer.token })).status).toBe(200);
    expect(
      (
        await h.call('PUT', `/api/orders/${placed.body._id}/pay`, {
          token: buyer.token,
          body: { receiptUrl: RECEIPT },
        })
      ).status,
    ).toBe(200);

    await h.startProducts();
    const again = await place(buyer.token, product);
    expect(again.status).toBe(201);
    // The refused checkout's reservation record is settled once the catalogue answers, and only
    // the two placed orders hold stock.
    await until(async () => (await h.pendingReservations()) === 0);
    expect(await h.stockOf(product._id)).toBe(3);
    expect(await h.storedOrders()).toBe(ordersBefore + 1);
  });
});

describe('when the products service crashes while orders are being placed', () => {
  it('answers each checkout 201, 409 or 503, stores exactly the accepted orders and loses no unit', async () => {
    const product = await h.createProduct({ price: 5, countInStock: 100 });
    const buyers = await Promise.all(Array.from({ length: 30 }, () => h.customer()));
    const inFlight = buyers.map((buyer, i) =>
      h.placeOrder(buyer.token, [{ _id: product._id, quantity: (i % 3) + 1 }]),
    );
    // Kill it in the thick of the work: once the first units are gone, while the other reserves are
    // still taking and recording theirs (a fixed delay often killed it before any reserve began).
    await until(async () => (await h.stockOf(product._id)) < 100, 5_000);
    await h.killProducts();
    const answers = await Promise.all(inFlight);
    for (const answer of answers) expect([201, 409, 503]).toContain(answer.status);

    await h.startProducts();
    const stored = await h.db
      .collection('orders')
      .find({ 'orderItems._id': product._id })
      .project({ orderItems: 1 })
      .toArray();
    expect(stored.map((order) => order._id.toHexString()).sort()).toEqual(
      answers
        .filter((answer) => answer.status === 201)
        .map((answer) => answer.body._id)
        .sort(),
    );
    const sold = stored.reduce(
      (sum, order) => sum + (order.orderItems as { quantity: number }[])[0]!.quantity,
      0,
    );
    // Every checkout orders had doubts about is released, and products settles what it had begun:
    // each unit it took is recorded on the product in the same write, so none is lost and none is
    // given back twice (docs/decisions/0006). A stalled reservation is finished within ~1.5 s.
    await until(async () => (await h.pendingReservations()) === 0, 20_000);
    await until(async () => (await h.stockOf(product._id)) === 100 - sold, 10_000).catch(() => undefined);
    expect(await h.stockOf(product._id)).toBe(100 - sold);
    // And checkout works again.
    expect((await place((await h.customer()).token, product)).status).toBe(201);
  });
});

describe('when NATS goes away', () => {
  it('answers 503 within the timeout, keeps the events of what it did, and delivers them once NATS is back', async () => {
    const { product, buyer, placed, refused } = await refusedAfter(() => nats.stop(), 30);
    expect(refused.ms).toBeLessThan(NATS_REQUEST_TIMEOUT_MS + 1_500);

    // Paying needs only the orders database: it succeeds, and order.paid waits in the outbox.
    const paid = await h.call<Order>('PUT', `/api/orders/${placed.body._id}/pay`, {
      token: buyer.token,
      body: { receiptUrl: RECEIPT },
    });
    expect(paid.status).toBe(200);
    const queued = await h.db.collection('orders').findOne({ _id: new Types.ObjectId(paid.body._id) });
    expect((queued as { outbox?: { type: string }[] } | null)?.outbox?.map((entry) => entry.type)).toContain(
      'order.paid',
    );

    nats = await startEmbeddedNats({ port: natsPort, storeDir });

    // A consumer that reads the stream from the start finds the event the relay published late.
    const connection = await connect({ servers: nats.url });
    const seen: EventEnvelope[] = [];
    const consumer: ConsumerHandle = await new JetStreamEvents(connection, pino({ level: 'silent' })).consume(
      uniqueDbName('after-outage'),
      [ORDER_PAID],
      async (event) => {
        seen.push(event);
      },
    );
    try {
      const event = await until(
        () => seen.find((e) => (e.data as { orderId: string }).orderId === placed.body._id),
        20_000,
      );
      expect(event.data).toMatchObject({ orderId: placed.body._id, status: 'Pending', by: 'customer' });
    } finally {
      await consumer.stop();
      await connection.close();
    }

    // Orders flow again once the services have reconnected.
    const again = await until(async () => {
      const answer = await place(buyer.token, product);
      return answer.status === 201 ? answer : undefined;
    }, 20_000);
    expect(again.body.orderItems[0]).toMatchObject({ _id: product._id, quantity: 1 });
    await until(async () => (await h.pendingReservations()) === 0, 20_000);
    expect(await h.stockOf(product._id)).toBe(3);
  });
});
