import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import {
  PRODUCT_MESSAGES,
  type ReleaseStockReply,
  type ReservedItem,
  type ReserveStockReply,
  type StockRequestItem,
} from '@shop/contracts';
import { SERVICE_CONTEXT, type ServiceContext, rpcRefusal } from '@shop/service-kit';
import type { Model } from 'mongoose';
import type { ProductsConfig } from '../config/products.config';
import { PRODUCT_MODEL, type ProductRecord } from '../products/product.schema';
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

/**
 * Takes and gives back stock for orders (`products.reserve`, `products.release`).
 *
 * Without multi-document transactions, every step is one atomic single-document write, ordered so
 * that a crash between two of them can only keep units out of sale, never sell a unit twice: stock
 * is taken (a conditional `$inc`, never below zero) before the reservation records it, and a line is
 * marked returned before its stock is given back (which also makes every give-back happen once).
 * A reservation left pending, failing or releasing by a crash is finished by `recover()`.
 * See docs/decisions/0006-catalogue-and-media.md.
 */
@Injectable()
export class StockReservationsService implements OnModuleInit {
  constructor(
    @InjectModel(PRODUCT_MODEL) private readonly products: Model<ProductRecord>,
    @InjectModel(STOCK_RESERVATION_MODEL) private readonly reservations: Model<Reservation>,
    @Inject(SERVICE_CONTEXT) private readonly context: ServiceContext<ProductsConfig>,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.reservations.init();
  }

  /** All items or none; the same reservation id answers the first result and takes nothing more. */
  async reserve(reservationId: string, items: StockRequestItem[]): Promise<ReserveStockReply> {
    const lines = items.map(({ productId, quantity }) => ({ productId, quantity }));
    if (new Set(lines.map((line) => line.productId)).size !== lines.length) refuse(DUPLICATE_LINES);
    try {
      await this.reservations.create({
        _id: reservationId,
        state: 'pending',
        items: lines,
        taken: [],
        returned: [],
      });
    } catch (error) {
      if (isDuplicateKey(error)) return this.repeat(reservationId, lines);
      throw error;
    }

    const reply: ReservedItem[] = [];
    for (const line of lines) {
      const product = await this.products
        .findOneAndUpdate(
          { _id: line.productId, deletedAt: null, countInStock: { $gte: line.quantity } },
          { $inc: { countInStock: -line.quantity } },
          { returnDocument: 'after', projection: { name: 1, price: 1, image: 1 }, timestamps: false },
        )
        .lean<TakenProduct>();
      if (!product) {
        const live = await this.products.exists({ _id: line.productId, deletedAt: null });
        const refusal = live ? OUT_OF_STOCK : NOT_FOUND;
        await this.settle(reservationId, refusal);
        refuse(refusal);
      }
      const recorded = await this.reservations.updateOne(
        { _id: reservationId, state: 'pending' },
        { $push: { taken: line } },
      );
      if (recorded.modifiedCount === 0) {
        // Recovery took this reservation over while we were stalled: it gives back what `taken`
        // lists, and this line is not listed, so it is ours to give back.
        await this.restock(line);
        refuse(INTERRUPTED);
      }
      reply.push({
        productId: line.productId,
        name: product.name,
        price: product.price,
        image: product.image[0] ?? '',
        quantity: line.quantity,
      });
    }

    const done = await this.reservations.updateOne(
      { _id: reservationId, state: 'pending', releaseRequested: false },
      { $set: { state: 'reserved', reply } },
    );
    if (done.modifiedCount === 0) {
      // Released while we were taking stock (or taken over by recovery): give it all back.
      const settled = await this.settle(reservationId, INTERRUPTED);
      refuse(settled?.releaseRequested ? RELEASED : (settled?.refusal ?? INTERRUPTED));
    }
    return { reservationId, items: reply };
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
            returned: [],
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
        return { reservationId, released: true };
      }
      if (current.state === 'pending' && !current.releaseRequested) {
        const asked = await this.reservations.updateOne(
          { _id: reservationId, state: 'pending', releaseRequested: false },
          { $set: { releaseRequested: true } },
        );
        // The reserve in progress (or the recovery pass) sees the request and gives the stock back.
        if (asked.modifiedCount === 1) return { reservationId, released: true };
        continue;
      }
      return { reservationId, released: false };
    }
    refuse(IN_PROGRESS);
  }

  /**
   * Finishes reservations a crash (or a stall longer than RESERVATION_STALE_AFTER_MS) left behind:
   * pending ones fail, and whatever they, or failing and releasing ones, still hold is given back.
   * Answers how many it finished.
   */
  async recover(now = new Date()): Promise<number> {
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

  private async repeat(reservationId: string, lines: StockRequestItem[]): Promise<ReserveStockReply> {
    const first = await this.reservations.findById(reservationId).lean<Reservation>();
    if (!first) refuse(IN_PROGRESS);
    if (first.items.length > 0 && !sameLines(first.items, lines)) refuse(ID_REUSED);
    if (first.state === 'reserved') return { reservationId, items: first.reply ?? [] };
    if (first.state === 'pending') refuse(IN_PROGRESS);
    if (first.state === 'failing' || first.state === 'failed') refuse(first.refusal ?? INTERRUPTED);
    refuse(RELEASED);
  }

  /**
   * Ends a pending reservation without success: released if a release asked for it, failed with
   * `refusal` otherwise, and gives back what it holds. Once it is no longer pending no line can be
   * recorded, so `taken` is complete when read here.
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
    for (const line of reservation.taken) await this.giveBack(reservation._id, line);
    await this.reservations.updateOne(
      { _id: reservation._id, state: reservation.state },
      { $set: { state: reservation.state === 'failing' ? 'failed' : 'released' } },
    );
  }

  /** Marks the line returned first: only the call that marked it gives the stock back. */
  private async giveBack(reservationId: string, line: StockRequestItem): Promise<void> {
    const marked = await this.reservations.updateOne(
      { _id: reservationId, returned: { $ne: line.productId } },
      { $push: { returned: line.productId } },
    );
    if (marked.modifiedCount === 1) await this.restock(line);
  }

  private async restock(line: StockRequestItem): Promise<void> {
    await this.products.updateOne(
      { _id: line.productId },
      { $inc: { countInStock: line.quantity } },
      { timestamps: false },
    );
  }
}
