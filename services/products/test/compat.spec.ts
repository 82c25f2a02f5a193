import type { ClientProxy } from '@nestjs/microservices';
import {
  EVENTS_STREAM,
  PRODUCTS_RELEASE,
  PRODUCTS_RESERVE,
  PRODUCT_UPDATED,
  type EventEnvelope,
} from '@shop/contracts';
import { requestReply } from '@shop/service-kit';
import { connectNatsClient, publishRawEvent } from '@shop/service-kit/testing';
import { type EmbeddedNats, startEmbeddedNats, until } from '@shop/testing';
import { Types } from 'mongoose';
import { type NatsConnection, connect } from 'nats';
import { firstValueFrom } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  future,
  previousOrderPaid,
  previousPasswordReset,
  previousProductUpdatedEntry,
  previousReleaseRequest,
  previousReserveRequest,
  previousUserDeleted,
} from './compat.fixtures';
import { collectEvents } from './support/jetstream-events.collector';
import { type ProductsHarness, startProducts } from './support/products.harness';

/*
 * The products service of this build with parts of the build before schema versions (cf99fb5) and
 * of a later one: events and commands in their shapes (compat.fixtures.ts) go through a real
 * nats-server into the service's own handlers and database. This file has a NATS of its own, so the
 * durable consumer and the `products` queue group are this service's alone.
 */

let ownNats: EmbeddedNats;
let shop: ProductsHarness;
let nats: NatsConnection;
let client: ClientProxy;

const newId = () => new Types.ObjectId().toHexString();
const nowSeconds = () => Math.floor(Date.now() / 1_000);

/** Sends a command with the NestJS client and no help from `requestReply`: the payload as given. */
const send = <T>(pattern: string, payload: unknown) => firstValueFrom(client.send<T>(pattern, payload));

const product = (countInStock: number, price = 10) =>
  shop.createProduct({ countInStock, price, category: 'Compat' });

/** A reservation as stored, every field of it. */
const reservationDoc = (id: string) =>
  shop.db.collection<{ _id: string; state?: string }>('stock_reservations').findOne({ _id: id });

const stateOf = async (id: string) => (await reservationDoc(id))?.state;

/** A reservation of `quantity` units of a fresh product, through this build's own client. */
async function reserved(quantity: number): Promise<{ reservationId: string; productId: string }> {
  const { _id: productId } = await product(5);
  const reservationId = newId();
  await requestReply(client, PRODUCTS_RESERVE, { reservationId, items: [{ productId, quantity }] }, 5_000);
  return { reservationId, productId };
}

beforeAll(async () => {
  ownNats = await startEmbeddedNats();
  shop = await startProducts({ NATS_URL: ownNats.url, LOG_LEVEL: 'error' });
  nats = await connect({ servers: ownNats.url });
  client = await connectNatsClient(ownNats.url);
});

afterAll(async () => {
  await client?.close();
  await nats?.drain();
  await shop?.close();
  await ownNats?.stop();
});

describe('order.paid from an orders build before or after schema versions', () => {
  it('sells the stock of a paid order once, however often the event is replayed', async () => {
    const { reservationId, productId } = await reserved(2);
    const event = previousOrderPaid(reservationId, newId(), 20);
    await publishRawEvent(nats, event);
    await until(async () => (await stateOf(reservationId)) === 'sold');

    // A relay that crashed after publishing sends it again; past JetStream's de-duplication window
    // it arrives a second time. The event after it shows the consumer got past it.
    await publishRawEvent(nats, event, `${event.id}-after-the-window`);
    const next = await reserved(1);
    await publishRawEvent(nats, future(previousOrderPaid(next.reservationId, newId(), 10)));
    await until(async () => (await stateOf(next.reservationId)) === 'sold');

    expect(await stateOf(reservationId)).toBe('sold');
    expect(await shop.stockOf(productId)).toBe(3);
    expect(await shop.stockOf(next.productId)).toBe(4);
    // Sold stock keeps its holds until delivery (decision 0024): one each, not one per replay.
    const holds = await shop.db
      .collection<{ holds: unknown[] }>('products')
      .find({ _id: { $in: [productId, next.productId].map((id) => new Types.ObjectId(id)) } as never })
      .toArray();
    expect(holds.map((product) => product.holds.length)).toEqual([1, 1]);
  });

  it('leaves an order.paid of a newer schema version for an upgraded replica', async () => {
    const { reservationId, productId } = await reserved(2);
    const newerSeq = await publishRawEvent(nats, {
      ...previousOrderPaid(reservationId, newId(), 20),
      schemaVersion: 2,
    });
    const next = await reserved(1);
    await publishRawEvent(nats, previousOrderPaid(next.reservationId, newId(), 10));
    await until(async () => (await stateOf(next.reservationId)) === 'sold');

    expect(await stateOf(reservationId)).toBe('reserved');
    expect(await shop.stockOf(productId)).toBe(3);
    const jsm = await nats.jetstreamManager();
    const consumer = await jsm.consumers.info(EVENTS_STREAM, 'products-paid-orders');
    expect(consumer.ack_floor.stream_seq).toBeLessThan(newerSeq);
    // Else this build's consumer would offer it again for the rest of the run.
    await jsm.streams.deleteMessage(EVENTS_STREAM, newerSeq);
  });
});

describe('token revocations from a users build before or after schema versions', () => {
  it("refuses a deleted user's tokens", async () => {
    const sub = newId();
    const token = await shop.tokens.sign({ sub, isAdmin: true });
    const createNothing = () => shop.call('POST', '/api/listings/create', { token, body: {} });
    expect((await createNothing()).status).toBe(400);
    await publishRawEvent(nats, previousUserDeleted(sub));
    await until(async () => (await createNothing()).status === 401);
  });

  it('ends the sessions opened before a password reset that carries fields it does not know', async () => {
    const sub = newId();
    const before = await shop.tokens.sign({ sub, isAdmin: true, iat: nowSeconds() - 60 });
    const after = await shop.tokens.sign({ sub, isAdmin: true, iat: nowSeconds() });
    const createNothing = (token: string) => shop.call('POST', '/api/listings/create', { token, body: {} });
    const reset = previousPasswordReset(sub, nowSeconds() - 10);
    await publishRawEvent(nats, future({ ...reset, data: { ...reset.data, device: 'kiosk' } }));
    await until(async () => (await createNothing(before)).status === 401);
    expect((await createNothing(after)).status).toBe(400);
  });
});

describe('the outbox of a products build before schema versions', () => {
  it('publishes an entry that build queued as version 1 of its type', async () => {
    const { _id: productId, slug, name } = await product(4, 12.5);
    const collector = await collectEvents(ownNats.url, [PRODUCT_UPDATED]);
    try {
      const entry = previousProductUpdatedEntry(productId, slug, name);
      await shop.db
        .collection('products')
        .updateOne({ _id: new Types.ObjectId(productId) as never }, { $push: { outbox: entry } as never });
      const published = await collector.waitFor((event) => event.id === entry.id, 10_000);
      expect(published).toEqual({ ...entry, schemaVersion: 1 } satisfies EventEnvelope);
    } finally {
      await collector.stop();
    }
  });
});

describe('stock commands from an orders build before or after schema versions', () => {
  it('reserves for a request of the previous shape, answers it in version 1, and takes stock once', async () => {
    const a = await product(5, 19.99);
    const reservationId = newId();
    const request = previousReserveRequest(reservationId, [{ productId: a._id, quantity: 2 }]);
    const expected = {
      schemaVersion: 1,
      reservationId,
      items: [{ productId: a._id, name: a.name, price: 19.99, image: a.image[0], quantity: 2 }],
    };
    expect(await send(PRODUCTS_RESERVE, request)).toEqual(expected);
    expect(await send(PRODUCTS_RESERVE, request)).toEqual(expected);
    expect(await shop.stockOf(a._id)).toBe(3);

    expect(await send(PRODUCTS_RELEASE, previousReleaseRequest(reservationId))).toEqual({
      schemaVersion: 1,
      reservationId,
      released: true,
    });
    expect(await send(PRODUCTS_RELEASE, previousReleaseRequest(reservationId))).toEqual({
      schemaVersion: 1,
      reservationId,
      released: false,
    });
    expect(await shop.stockOf(a._id)).toBe(5);
  });

  it('ignores fields it does not know, keeping them out of its database', async () => {
    const a = await product(5, 7.5);
    const reservationId = newId();
    const request = future({
      reservationId,
      items: [{ productId: a._id, quantity: 1, giftWrap: true }],
    });
    expect(await send(PRODUCTS_RESERVE, request)).toEqual({
      schemaVersion: 1,
      reservationId,
      items: [{ productId: a._id, name: a.name, price: 7.5, image: a.image[0], quantity: 1 }],
    });
    const stored = JSON.stringify(await reservationDoc(reservationId));
    expect(stored).toContain(reservationId);
    expect(stored).not.toMatch(/traceId|giftWrap|schemaVersion/);
    expect(await send(PRODUCTS_RELEASE, future(previousReleaseRequest(reservationId)))).toEqual({
      schemaVersion: 1,
      reservationId,
      released: true,
    });
  });

  it('refuses a request of a newer version with a 503 and takes nothing', async () => {
    const a = await product(5);
    const reservationId = newId();
    const request = {
      ...previousReserveRequest(reservationId, [{ productId: a._id, quantity: 1 }]),
      schemaVersion: 2,
    };
    await expect(send(PRODUCTS_RESERVE, request)).rejects.toMatchObject({ status: 503 });
    expect(await shop.stockOf(a._id)).toBe(5);
    expect(await reservationDoc(reservationId)).toBeNull();
  });
});
