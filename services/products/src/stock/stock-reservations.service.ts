import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import {
  PRODUCT_MESSAGES,
  type ReleaseStockReply,
  type ReservedItem,
  type ReserveStockReply,
  type StockRequestItem,
} from '@shop/contracts';
import {
  GroupCommit,
  SERVICE_CONTEXT,
  type ServiceContext,
  insertEach,
  rpcRefusal,
  shopCounter,
} from '@shop/service-kit';
import { type Model, Types, type mongo } from 'mongoose';
import type { ProductsConfig } from '../config/products.config';
import { reportStockChange } from '../products/product-writes';
import { PRODUCT_MODEL, type ProductHold, type ProductRecord } from '../products/product.schema';
import { type ProductWrite, dropHold, giveBackStock, strayHoldAction, takeStock } from './stock-holds';
import {
  type ReservationRefusal,
  STOCK_RESERVATION_MODEL,
  type StockReservationRecord,
} from './stock-reservation.schema';

const OUT_OF_STOCK: ReservationRefusal = { status: 409, message: PRODUCT_MESSAGES.outOfStock };
const NOT_FOUND: ReservationRefusal = { status: 404, message: PRODUCT_MESSAGES.notFound };
const DUPLICATE_LINES: ReservationRefusal = {
  status: 400,
  message: 'Each product may appear only once in a reservation',
};
const NO_LINES: ReservationRefusal = { status: 400, message: 'A reservation needs at least one line' };
const ID_REUSED: ReservationRefusal = {
  status: 409,
  message: 'This reservation id was used for other items',
};
const RELEASED: ReservationRefusal = { status: 409, message: 'This reservation was released' };
// 503s: the caller's requestReply turns them into "please try again".
const IN_PROGRESS: ReservationRefusal = { status: 503, message: 'This reservation is still being processed' };
const INTERRUPTED: ReservationRefusal = { status: 503, message: 'The reservation was interrupted' };

function refuse(refusal: ReservationRefusal): never {
  throw rpcRefusal(refusal.status, refusal.message);
}

const isDuplicateKey = (error: unknown) => (error as { code?: unknown } | null)?.code === 11000;

const sameLines = (a: StockRequestItem[], b: StockRequestItem[]) =>
  a.length === b.length &&
  a.every((line, i) => line.productId === b[i]?.productId && line.quantity === b[i]?.quantity);

type Reservation = StockReservationRecord;
type TakenProduct = Pick<ProductRecord, 'name' | 'price' | 'image'>;
type HoldingProduct = { _id: unknown; holds: ProductHold[] };
type ReserveRequest = { reservationId: string; lines: StockRequestItem[] };

/**
 * Takes and gives back stock for orders (`products.reserve`, `products.release`).
 *
 * Without multi-document transactions, every stock change is recorded in the very write that makes
 * it: taking a line pushes a hold `{ id: reservationId, quantity }` onto the product in the same
 * conditional `$inc` (never below zero), and giving it back pulls that hold in the same `$inc`,
 * matching only while the hold is there. So each take and each give-back happens exactly once and
 * a crash at any point leaves the products saying exactly who holds what. The reservation document
 * records the state, the reply and the request; `recover()` finishes reservations a crash left
 * pending, failing or releasing from the holds, and settles holds left behind by reservations that
 * have ended. A reservation whose order is paid (`sold`) drops its holds without a stock change.
 * See docs/decisions/0006-catalogue-and-media.md.
 */
@Injectable()
export class StockReservationsService implements OnModuleInit, OnModuleDestroy {
  // Reserves that arrive while one batch is being written go out together in the next.
  private readonly reserves = new GroupCommit<ReserveRequest, ReserveStockReply>((batch, answer) =>
    this.reserveMany(batch, answer),
  );
  private readonly held = shopCounter(
    'shop.stock.reservations.held',
    'Stock reservations taken for an order',
  );
  private readonly released = shopCounter(
    'shop.stock.reservations.released',
    'Stock reservations given back (an order not placed, or deleted unpaid)',
  );

  constructor(
    @InjectModel(PRODUCT_MODEL) private readonly products: Model<ProductRecord>,
    @InjectModel(STOCK_RESERVATION_MODEL) private readonly reservations: Model<Reservation>,
    @Inject(SERVICE_CONTEXT) private readonly context: ServiceContext<ProductsConfig>,
  ) {}

  /** The reservations through the driver, for the bulk writes of `reserveMany` (string ids). */
  private get reservationDocuments(): mongo.Collection<StockReservationRecord> {
    return this.reservations.collection as unknown as mongo.Collection<StockReservationRecord>;
  }

  async onModuleInit(): Promise<void> {
    await this.reservations.init();
  }

  async onModuleDestroy(): Promise<void> {
    await this.reserves.flushed();
  }

  /** All items or none; the same reservation id answers the first result and takes nothing more. */
  async reserve(reservationId: string, items: StockRequestItem[]): Promise<ReserveStockReply> {
    const lines = items.map(({ productId, quantity }) => ({ productId, quantity }));
    if (lines.length === 0) refuse(NO_LINES);
    if (new Set(lines.map((line) => line.productId)).size !== lines.length) refuse(DUPLICATE_LINES);
    return this.reserves.add({ reservationId, lines });
  }

  /**
   * The reserves that arrived together, in three writes whatever their number (issue 16: every write
   * command waits for the one before it on the embedded database, so commands per order bound the
   * orders per second): the pending reservations in one insert, every line's take in one bulk update,
   * and the switch to reserved in one bulk update. Each take is still its own conditional update of
   * one product (`takeStock`: never below zero), so batching changes how many commands carry them,
   * not what each may do. One read of the products gives every reply its name, price and image;
   * which takes and switches matched is read back (a bulk write answers counts only) from the holds
   * and states they leave, and only when the counts say that some did not.
   */
  private async reserveMany(
    batch: ReserveRequest[],
    answer: (index: number, outcome: ReserveStockReply | Promise<ReserveStockReply>) => void,
  ): Promise<void> {
    const at = new Date();
    const inserted = await this.insertPending(batch, at);
    const fresh: number[] = [];
    batch.forEach(({ reservationId, lines }, index) => {
      const error = inserted.get(index);
      if (error === undefined) fresh.push(index);
      else if (isDuplicateKey(error)) answer(index, this.repeat(reservationId, lines));
      else answer(index, Promise.reject(error));
    });
    if (fresh.length === 0) return;

    const takes = fresh.flatMap((index) =>
      batch[index]!.lines.map((line) => ({
        index,
        line,
        take: takeStock(batch[index]!.reservationId, line, at),
      })),
    );
    const productIds = [...new Set(takes.map(({ line }) => line.productId))];
    let taken: mongo.BulkWriteResult;
    try {
      taken = await this.products.collection.bulkWrite(
        takes.map(({ line, take }) => ({
          updateOne: {
            filter: { ...take.filter, _id: new Types.ObjectId(line.productId) },
            update: take.update,
          },
        })) as mongo.AnyBulkWriteOperation[],
        { ordered: false },
      );
    } finally {
      reportStockChange(this.products, productIds);
    }
    const everyTakeMatched = taken.modifiedCount === takes.length;
    const products = new Map(
      (
        await this.products.collection
          .find(
            { _id: { $in: productIds.map((id) => new Types.ObjectId(id)) } },
            { projection: { name: 1, price: 1, image: 1, ...(everyTakeMatched ? {} : { 'holds.id': 1 }) } },
          )
          .toArray()
      ).map((product) => [
        String(product._id),
        product as unknown as TakenProduct & { holds?: { id: string }[] },
      ]),
    );

    const complete: { index: number; reply: ReservedItem[] }[] = [];
    for (const index of fresh) {
      const { reservationId, lines } = batch[index]!;
      const missing = lines.find((line) => {
        const product = products.get(line.productId);
        return !product || (!everyTakeMatched && !product.holds?.some((hold) => hold.id === reservationId));
      });
      if (missing) {
        answer(index, this.refuseTake(reservationId, missing));
        continue;
      }
      const reply = lines.map((line) => {
        const product = products.get(line.productId)!;
        return {
          productId: line.productId,
          name: product.name,
          price: product.price,
          image: product.image[0] ?? '',
          quantity: line.quantity,
        };
      });
      complete.push({ index, reply });
    }
    if (complete.length === 0) return;

    const done = await this.reservationDocuments.bulkWrite(
      complete.map(({ index, reply }) => ({
        updateOne: {
          filter: { _id: batch[index]!.reservationId, state: 'pending', releaseRequested: false },
          update: {
            $push: { taken: { $each: batch[index]!.lines } },
            $set: { state: 'reserved', reply, updatedAt: new Date() },
          },
        },
      })),
      { ordered: false },
    );
    const states =
      done.modifiedCount === complete.length
        ? undefined
        : new Map(
            (
              await this.reservationDocuments
                .find(
                  { _id: { $in: complete.map(({ index }) => batch[index]!.reservationId) } },
                  { projection: { state: 1 } },
                )
                .toArray()
            ).map((reservation) => [reservation._id, reservation.state]),
          );
    for (const { index, reply } of complete) {
      const { reservationId, lines } = batch[index]!;
      // Only this reserve switches a reservation from pending to reserved.
      if (!states || states.get(reservationId) === 'reserved') {
        this.held.add(1);
        answer(index, { reservationId, items: reply });
      } else answer(index, this.interrupted(reservationId, lines));
    }
  }

  /** Records each reserve as pending, in one insert; answers the error of each one that was not. */
  private insertPending(batch: ReserveRequest[], at: Date): Promise<Map<number, unknown>> {
    return insertEach(
      this.reservationDocuments,
      batch.map(({ reservationId, lines }) => ({
        _id: reservationId,
        state: 'pending' as const,
        items: lines,
        taken: [],
        holdsOnProducts: true,
        returned: [],
        releaseRequested: false,
        createdAt: at,
        updatedAt: at,
      })),
    );
  }

  /** A line could not be taken: the reserve fails, giving back whatever its other lines took. */
  private async refuseTake(reservationId: string, line: StockRequestItem): Promise<never> {
    const live = await this.products.exists({ _id: line.productId, deletedAt: null });
    const refusal = live ? OUT_OF_STOCK : NOT_FOUND;
    await this.settle(reservationId, refusal);
    refuse(refusal);
  }

  /**
   * Released while we were taking stock, or taken over by recovery: give it all back. Settling gives
   * back every line still held while the reservation is pending; if recovery had already finished
   * it, our takes may have come after that and are ours to give back (once, whoever does).
   */
  private async interrupted(reservationId: string, lines: StockRequestItem[]): Promise<never> {
    const settled = await this.settle(reservationId, INTERRUPTED);
    for (const line of lines) await this.write(giveBackStock(reservationId, line));
    refuse(settled?.releaseRequested ? RELEASED : (settled?.refusal ?? INTERRUPTED));
  }

  /** Gives the stock back once, however often it is asked; answers whether this call released it. */
  async release(reservationId: string): Promise<ReleaseStockReply> {
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const current = await this.reservations.findById(reservationId).lean<Reservation>();
      if (!current) {
        // A release that overtook its reserve: remember it, so the late reserve takes nothing.
        try {
          await this.reservations.create({
            _id: reservationId,
            state: 'released',
            items: [],
            taken: [],
            holdsOnProducts: true,
          });
          return { reservationId, released: false };
        } catch (error) {
          if (isDuplicateKey(error)) continue;
          throw error;
        }
      }
      if (current.state === 'reserved') {
        const flipped = await this.reservations
          .findOneAndUpdate(
            { _id: reservationId, state: 'reserved' },
            { $set: { state: 'releasing' } },
            { returnDocument: 'after' },
          )
          .lean<Reservation>();
        if (!flipped) continue;
        await this.finish(flipped);
        this.released.add(1);
        return { reservationId, released: true };
      }
      if (current.state === 'pending' && !current.releaseRequested) {
        const asked = await this.reservations.updateOne(
          { _id: reservationId, state: 'pending', releaseRequested: false },
          { $set: { releaseRequested: true } },
        );
        // The reserve in progress (or the recovery pass) sees the request and gives the stock back.
        if (asked.modifiedCount === 1) {
          this.released.add(1);
          return { reservationId, released: true };
        }
        continue;
      }
      if (current.state === 'sold') {
        // Orders never releases a paid order; if someone does, the sold stock stays sold.
        this.context.logger.warn({ reservationId }, 'refusing to release the stock of a paid order');
      }
      return { reservationId, released: false };
    }
    refuse(IN_PROGRESS);
  }

  /**
   * The reservation's order was paid for good (`order.paid` with status Paid): its stock never comes
   * back, so the products forget its holds without changing their stock, and a later release gives
   * nothing back. Idempotent; answers whether the reservation is sold.
   */
  async sell(reservationId: string): Promise<boolean> {
    const sold =
      (await this.reservations
        .findOneAndUpdate(
          { _id: reservationId, state: 'reserved' },
          { $set: { state: 'sold' } },
          { returnDocument: 'after' },
        )
        .lean<Reservation>()) ??
      (await this.reservations.findOne({ _id: reservationId, state: 'sold' }).lean<Reservation>());
    if (!sold) {
      const current = await this.reservations.findById(reservationId).select('state').lean<Reservation>();
      if (current) {
        // Orders releases only unpaid orders, so this should not happen: the stock went back.
        this.context.logger.warn(
          { reservationId, state: current.state },
          'a paid order whose stock reservation is not held',
        );
      }
      return false;
    }
    for (const line of sold.items) await this.write(dropHold(reservationId, line.productId));
    return true;
  }

  /**
   * Finishes reservations a crash (or a stall longer than RESERVATION_STALE_AFTER_MS) left behind:
   * pending ones fail, and whatever they, or failing and releasing ones, still hold is given back.
   * Then settles holds that ended reservations left on products. Answers how many reservations it
   * finished plus how many stray holds it settled.
   */
  async recover(now = new Date()): Promise<number> {
    return (await this.finishStale(now)) + (await this.settleStrayHolds());
  }

  private async finishStale(now: Date): Promise<number> {
    const cutoff = new Date(now.getTime() - this.context.config.RESERVATION_STALE_AFTER_MS);
    const stale = await this.reservations
      .find({ state: { $in: ['pending', 'failing', 'releasing'] }, updatedAt: { $lt: cutoff } })
      .limit(100)
      .lean<Reservation[]>();
    let finished = 0;
    for (const reservation of stale) {
      // Claim it, so replicas running the pass at once do the work once (it is idempotent anyway).
      const claimed = await this.reservations.updateOne(
        { _id: reservation._id, state: reservation.state, updatedAt: reservation.updatedAt },
        { $set: { recoveredAt: now } },
      );
      if (claimed.modifiedCount === 0) continue;
      this.context.logger.warn(
        { reservationId: reservation._id, state: reservation.state },
        'finishing an interrupted stock reservation',
      );
      if (reservation.state === 'pending') {
        await this.settle(reservation._id, INTERRUPTED);
      } else {
        const current = await this.reservations.findById(reservation._id).lean<Reservation>();
        if (current) await this.finish(current);
      }
      finished += 1;
    }
    return finished;
  }

  /**
   * A reserve that stalled past its take-over can still take a line after the recovery gave the
   * reservation's holds back; it gives that line back itself, unless it dies first. Such a hold, or
   * one a crash left on a sold reservation, is found here on the product and settled by the
   * reservation's final state (`strayHoldAction`); both writes happen once whoever sends them.
   */
  private async settleStrayHolds(): Promise<number> {
    let settled = 0;
    const holding = this.products
      .find({ 'holds.0': { $exists: true } })
      .select('holds')
      .lean<HoldingProduct[]>()
      .cursor();
    for await (const product of holding) {
      const productId = String(product._id);
      const ids = [...new Set(product.holds.map((hold) => hold.id))];
      const states = new Map(
        (
          await this.reservations
            .find({ _id: { $in: ids } })
            .select('state')
            .lean<Reservation[]>()
        ).map((reservation) => [reservation._id, reservation.state]),
      );
      for (const hold of product.holds) {
        const action = strayHoldAction(states.get(hold.id));
        if (action === 'keep') continue;
        const write =
          action === 'drop'
            ? dropHold(hold.id, productId)
            : giveBackStock(hold.id, { productId, quantity: hold.quantity });
        if (await this.write(write)) {
          settled += 1;
          this.context.logger.warn(
            { reservationId: hold.id, productId, quantity: hold.quantity, action },
            'settled a stock hold an interrupted reservation left behind',
          );
        }
      }
    }
    return settled;
  }

  private async repeat(reservationId: string, lines: StockRequestItem[]): Promise<ReserveStockReply> {
    const first = await this.reservations.findById(reservationId).lean<Reservation>();
    if (!first) refuse(IN_PROGRESS);
    if (first.items.length > 0 && !sameLines(first.items, lines)) refuse(ID_REUSED);
    if (first.state === 'reserved' || first.state === 'sold')
      return { reservationId, items: first.reply ?? [] };
    if (first.state === 'pending') refuse(IN_PROGRESS);
    if (first.state === 'failing' || first.state === 'failed') refuse(first.refusal ?? INTERRUPTED);
    refuse(RELEASED);
  }

  /**
   * Ends a pending reservation without success: released if a release asked for it, failed with
   * `refusal` otherwise, and gives back what it holds: every requested line whose hold is on its
   * product, recorded in `taken` or not (a crash may have come between the two).
   */
  private async settle(reservationId: string, refusal: ReservationRefusal): Promise<Reservation | null> {
    const after = { returnDocument: 'after' as const };
    const reservation =
      (await this.reservations
        .findOneAndUpdate(
          { _id: reservationId, state: 'pending', releaseRequested: true },
          { $set: { state: 'releasing' } },
          after,
        )
        .lean<Reservation>()) ??
      (await this.reservations
        .findOneAndUpdate(
          { _id: reservationId, state: 'pending' },
          { $set: { state: 'failing', refusal } },
          after,
        )
        .lean<Reservation>()) ??
      (await this.reservations.findById(reservationId).lean<Reservation>());
    if (reservation) await this.finish(reservation);
    return reservation;
  }

  /** Gives back every line of a failing or releasing reservation, then marks it failed or released. */
  private async finish(reservation: Reservation): Promise<void> {
    if (reservation.state !== 'failing' && reservation.state !== 'releasing') return;
    if (reservation.holdsOnProducts) {
      for (const line of reservation.items) await this.write(giveBackStock(reservation._id, line));
    } else {
      for (const line of reservation.taken) await this.giveBackLegacy(reservation._id, line);
    }
    await this.reservations.updateOne(
      { _id: reservation._id, state: reservation.state },
      { $set: { state: reservation.state === 'failing' ? 'failed' : 'released' } },
    );
  }

  /**
   * A reservation made before holds existed: marks the line returned first, so only the call that
   * marked it gives the stock back (a crash between the two keeps those units out of sale).
   */
  private async giveBackLegacy(reservationId: string, line: StockRequestItem): Promise<void> {
    const marked = await this.reservations.updateOne(
      { _id: reservationId, returned: { $ne: line.productId } },
      { $push: { returned: line.productId } },
    );
    if (marked.modifiedCount === 1) {
      await this.products.updateOne(
        { _id: line.productId },
        { $inc: { countInStock: line.quantity } },
        { timestamps: false },
      );
    }
  }

  /** Applies one product write; answers whether it changed the product. Stock moves are not edits. */
  private async write({ filter, update }: ProductWrite): Promise<boolean> {
    const result = await this.products.updateOne(filter, update, { timestamps: false });
    return result.modifiedCount === 1;
  }
}
