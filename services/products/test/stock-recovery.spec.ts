import { getModelToken } from '@nestjs/mongoose';
import { type StockRequestItem } from '@shop/contracts';
import { refusalOf } from '@shop/service-kit/testing';
import { type Model } from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRODUCT_MODEL, type ProductRecord } from '../src/products/product.schema';
import { type ProductWrite, giveBackStock, takeStock } from '../src/stock/stock-holds';
import { StockRecoveryService } from '../src/stock/stock-recovery.service';
import { type ProductsHarness, newId, startProducts } from './support/products.harness';

// Crash recovery of reservations: work a process left half-done when it died is finished by the next
// pass, giving back or keeping each unit exactly once.

let shop: ProductsHarness;

beforeAll(async () => {
  shop = await startProducts();
});

afterAll(async () => {
  await shop?.close();
});

/** Performs one of the service's own product writes alone, as if the process died right after it. */
async function productWriteAlone({ filter, update }: ProductWrite): Promise<void> {
  const products = shop.app.get<Model<ProductRecord>>(getModelToken(PRODUCT_MODEL));
  const result = await products.updateOne(filter, update, { timestamps: false });
  expect(result.modifiedCount).toBe(1);
}

const takeAlone = (reservationId: string, line: StockRequestItem) =>
  productWriteAlone(takeStock(reservationId, line, new Date()));
const giveBackAlone = (reservationId: string, line: StockRequestItem) =>
  productWriteAlone(giveBackStock(reservationId, line));

describe('crash recovery', () => {
  const reservations = () => shop.db.collection<Record<string, unknown>>('stock_reservations');
  const longAgo = () => new Date(Date.now() - 10 * 60_000);
  const recover = () => shop.app.get(StockRecoveryService).recover();
  /** Two products with `stock` each, and the lines of a new reservation: `quantities` of a and of b. */
  const linesOfTwoProducts = async (stock: number, [ofA, ofB]: [number, number]) => {
    const [a, b] = [await shop.productInStock(stock), await shop.productInStock(stock)];
    const items = [
      { productId: a._id, quantity: ofA },
      { productId: b._id, quantity: ofB },
    ];
    return { a, b, reservationId: newId(), items };
  };
  const reservationState = async (id: string) =>
    (await reservations().findOne({ _id: id as never }))?.['state'];
  /** Stores a reservation as a crashed or stalled process left it. */
  const storeReservation = (
    reservationId: string,
    fields: { state: string; items: unknown[]; taken?: unknown[]; at?: Date } & Record<string, unknown>,
  ) => {
    const { at = longAgo(), taken = [], ...rest } = fields;
    return reservations().insertOne({
      _id: reservationId as never,
      taken,
      holdsOnProducts: true,
      releaseRequested: false,
      ...rest,
      createdAt: at,
      updatedAt: at,
    });
  };

  it('loses no unit when a reserve dies between taking stock and recording it', async () => {
    const { a, b, reservationId, items } = await linesOfTwoProducts(5, [2, 1]);
    // Line a was taken and recorded; line b was taken on its product, and then the process died.
    await takeAlone(reservationId, items[0]!);
    await takeAlone(reservationId, items[1]!);
    await storeReservation(reservationId, { state: 'pending', items, taken: [items[0]] });
    expect([await shop.stockOf(a._id), await shop.stockOf(b._id)]).toEqual([3, 4]);
    expect(await recover()).toBe(1);
    expect([await shop.stockOf(a._id), await shop.stockOf(b._id)]).toEqual([5, 5]);
    expect([await shop.holdsOf(a._id), await shop.holdsOf(b._id)]).toEqual([[], []]);
    expect(await reservationState(reservationId)).toBe('failed');
    expect(await recover()).toBe(0);
    expect([await shop.stockOf(a._id), await shop.stockOf(b._id)]).toEqual([5, 5]);
    const repeat = await refusalOf(shop.reserve({ reservationId, items }));
    expect(repeat.status).toBe(503);
    expect([await shop.stockOf(a._id), await shop.stockOf(b._id)]).toEqual([5, 5]);
  });

  it('finishes a release interrupted half-way, giving back only the lines not yet returned', async () => {
    const { a, b, reservationId, items } = await linesOfTwoProducts(4, [1, 3]);
    await shop.reserve({ reservationId, items });
    // The crash: line a was given back (its hold went with it), line b not yet.
    await reservations().updateOne(
      { _id: reservationId as never },
      { $set: { state: 'releasing', updatedAt: longAgo() } },
    );
    await giveBackAlone(reservationId, items[0]!);
    expect([await shop.stockOf(a._id), await shop.stockOf(b._id)]).toEqual([4, 1]);
    expect(await recover()).toBe(1);
    expect([await shop.stockOf(a._id), await shop.stockOf(b._id)]).toEqual([4, 4]);
    expect(await reservationState(reservationId)).toBe('released');
    expect(await shop.release(reservationId)).toEqual({ reservationId, released: false });
    expect([await shop.stockOf(a._id), await shop.stockOf(b._id)]).toEqual([4, 4]);
  });

  it('gives back once when a finished release is run again (a crash before its last state write)', async () => {
    const a = await shop.productInStock(4);
    const reservationId = newId();
    await shop.reserve({ reservationId, items: [{ productId: a._id, quantity: 3 }] });
    expect(await shop.release(reservationId)).toEqual({ reservationId, released: true });
    expect(await shop.stockOf(a._id)).toBe(4);
    await reservations().updateOne(
      { _id: reservationId as never },
      { $set: { state: 'releasing', updatedAt: longAgo() } },
    );
    expect(await recover()).toBe(1);
    expect(await shop.stockOf(a._id)).toBe(4);
    expect(await reservationState(reservationId)).toBe('released');
  });

  it('a release of a pending reservation is honoured by whoever finishes it', async () => {
    const a = await shop.productInStock(3);
    const reservationId = newId();
    const items = [{ productId: a._id, quantity: 1 }];
    await takeAlone(reservationId, items[0]!);
    await storeReservation(reservationId, { state: 'pending', items, taken: items, at: new Date() });
    expect(await shop.release(reservationId)).toEqual({ reservationId, released: true });
    expect(await recover()).toBe(0);
    await reservations().updateOne({ _id: reservationId as never }, { $set: { updatedAt: longAgo() } });
    expect(await recover()).toBe(1);
    expect(await shop.stockOf(a._id)).toBe(3);
    expect(await shop.holdsOf(a._id)).toEqual([]);
    expect(await reservationState(reservationId)).toBe('released');
  });

  it('gives back a unit that a reserve stalled past its take-over took and then died holding', async () => {
    const a = await shop.productInStock(3);
    const reservationId = newId();
    const items = [{ productId: a._id, quantity: 2 }];
    await storeReservation(reservationId, { state: 'pending', items });
    // The recovery fails it while its reserve is stalled; the reserve then takes its line and dies.
    expect(await recover()).toBe(1);
    expect(await reservationState(reservationId)).toBe('failed');
    await takeAlone(reservationId, items[0]!);
    expect(await shop.stockOf(a._id)).toBe(1);
    expect(await recover()).toBe(1);
    expect(await shop.stockOf(a._id)).toBe(3);
    expect(await shop.holdsOf(a._id)).toEqual([]);
    expect(await recover()).toBe(0);
    expect(await shop.stockOf(a._id)).toBe(3);
  });

  it('drops the holds a closed reservation left behind, without changing the stock, and keeps a sold one’s', async () => {
    const a = await shop.productInStock(3);
    const reservationId = newId();
    await shop.reserve({ reservationId, items: [{ productId: a._id, quantity: 2 }] });
    // Sold: its order may still be cancelled, so its holds are no stray.
    await reservations().updateOne({ _id: reservationId as never }, { $set: { state: 'sold' } });
    expect(await recover()).toBe(0);
    expect(await shop.holdsOf(a._id)).toHaveLength(1);
    // The crash: the reservation was marked closed (delivered), its holds not yet dropped.
    await reservations().updateOne({ _id: reservationId as never }, { $set: { state: 'closed' } });
    expect(await recover()).toBe(1);
    expect(await shop.holdsOf(a._id)).toEqual([]);
    expect(await shop.stockOf(a._id)).toBe(1);
    expect(await shop.release(reservationId)).toEqual({ reservationId, released: false });
    expect(await shop.stockOf(a._id)).toBe(1);
  });

  it('finishes a paid order’s cancellation that a crash interrupted, giving its stock back once', async () => {
    const a = await shop.productInStock(4);
    const reservationId = newId();
    const items = [{ productId: a._id, quantity: 3 }];
    await shop.reserve({ reservationId, items });
    // Sold, then cancelled: the release flipped it to releasing and died before giving anything back.
    await reservations().updateOne(
      { _id: reservationId as never },
      { $set: { state: 'releasing', updatedAt: longAgo() } },
    );
    expect(await recover()).toBe(1);
    expect(await reservationState(reservationId)).toBe('released');
    expect([await shop.stockOf(a._id), await shop.holdsOf(a._id)]).toEqual([4, []]);
    expect(await recover()).toBe(0);
    expect(await shop.release(reservationId)).toEqual({ reservationId, released: false });
    expect(await shop.stockOf(a._id)).toBe(4);
  });

  it('leaves fresh work in progress alone, and a repeat of it is asked to try again', async () => {
    const reservationId = newId();
    const items = [{ productId: newId(), quantity: 1 }];
    await storeReservation(reservationId, { state: 'pending', items, at: new Date() });
    expect(await recover()).toBe(0);
    expect(await reservationState(reservationId)).toBe('pending');
    expect((await refusalOf(shop.reserve({ reservationId, items }))).status).toBe(503);
  });
});
