import { EVENTS_STREAM, ORDER_PAID, type OrderPaidEvent, type Product } from '@shop/contracts';
import { JetStreamEvents, newEvent } from '@shop/service-kit';
import { flagSetFile } from '@shop/service-kit/testing';
import { type NatsConnection, connect } from 'nats';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { PAID_ORDERS_CONSUMER } from '../src/stock/order-events.controller';
import { type ProductsHarness, newId, startProducts } from './support/products.harness';

// The catalogue's fault flag (docs/observability.md, "Fault flags"), read from a flag set file as
// FLAGS_SOURCE=file://… (the cluster syncs the same set from the data service).

const DELAY_MS = 3_000;
const LAG_MS = 1_500;
const flagFile = flagSetFile({
  catalogReadDelay: { off: 0, slow: DELAY_MS },
  productsConsumerLag: { off: 0, lag: LAG_MS },
});

let products: ProductsHarness;
let nats: NatsConnection;

beforeAll(async () => {
  products = await startProducts({ FLAGS_SOURCE: flagFile.source });
  nats = await connect({ servers: inject('natsUrl') });
});

afterAll(async () => {
  await nats?.close();
  await products?.close();
  flagFile.remove();
});

/** A catalogue read through the gateway: its answer and how long it took. */
async function timedRead(slug: string): Promise<{ status: number; name: string; ms: number }> {
  const started = performance.now();
  const { status, body } = await products.call<Product>('GET', `/api/products/slug/${slug}`);
  return { status, name: body.name, ms: performance.now() - started };
}

describe('catalogReadDelay', () => {
  it('slows every catalogue read by its delay, answered from memory or not, and no longer once off', async () => {
    const product = await products.createProduct();
    // Read once while off: the second read below is answered from memory.
    expect((await timedRead(product.slug)).status).toBe(200);

    await flagFile.switchTo(products.flags, { catalogReadDelay: 'slow' });
    const slow = await timedRead(product.slug);
    expect(slow).toMatchObject({ status: 200, name: product.name });
    expect(slow.ms).toBeGreaterThanOrEqual(DELAY_MS);

    await flagFile.switchTo(products.flags, {});
    const again = await timedRead(product.slug);
    expect(again).toMatchObject({ status: 200, name: product.name });
    // The flag's delay is gone (a cached read takes milliseconds; the bound is the flag's own value).
    expect(again.ms).toBeLessThan(DELAY_MS);
  });
});

describe('productsConsumerLag', () => {
  /** Publishes an admin's payment of an order the way the orders service's relay does. */
  const orderPaid = (orderId: string) =>
    new JetStreamEvents(nats, pino({ level: 'silent' })).publish(
      newEvent(ORDER_PAID, {
        orderId,
        userId: newId(),
        status: 'Paid',
        by: 'admin',
        paidAt: new Date().toISOString(),
        totalPrice: 10,
      }) satisfies OrderPaidEvent,
    );
  const statesOf = async (ids: string[]) => {
    const stored = await products.db
      .collection<{ _id: string; state: string }>('stock_reservations')
      .find({ _id: { $in: ids } })
      .toArray();
    return ids.map((id) => stored.find((each) => each._id === id)?.state);
  };
  /** What JetStream holds for products' consumer of order.paid: not yet delivered, or not yet acknowledged. */
  const waiting = async () => {
    const info = await (await nats.jetstreamManager()).consumers.info(EVENTS_STREAM, PAID_ORDERS_CONSUMER);
    return info.num_pending + info.num_ack_pending;
  };

  it('holds each order event its delay before products handles it, the rest waiting in JetStream, and none once off', async () => {
    const product = await products.productInStock(4);
    const ids = [newId(), newId(), newId()];
    for (const id of ids)
      await products.reserve({ reservationId: id, items: [{ productId: product._id, quantity: 1 }] });

    await flagFile.switchTo(products.flags, { productsConsumerLag: 'lag' });
    const started = Date.now();
    for (const id of ids) await orderPaid(id);
    // The consumer handles its events one after the other, each after the lag: they wait meanwhile.
    await expect.poll(waiting, { message: 'events waiting for products' }).toBeGreaterThanOrEqual(2);
    await expect.poll(() => statesOf(ids), { timeout: 30_000 }).toEqual(['sold', 'sold', 'sold']);
    expect(Date.now() - started, 'each event held the lag before it was handled').toBeGreaterThanOrEqual(
      ids.length * LAG_MS,
    );

    await flagFile.switchTo(products.flags, {});
    const next = newId();
    await products.reserve({ reservationId: next, items: [{ productId: product._id, quantity: 1 }] });
    await orderPaid(next);
    await expect.poll(() => statesOf([next])).toEqual(['sold']);
    expect(await waiting()).toBe(0);
  });
});
