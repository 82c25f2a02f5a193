import { Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { ReservedItem, ReserveStockReply, StockRequestItem } from '@shop/contracts';
import { GroupCommit, insertEach, isDuplicateKey, shopCounter } from '@shop/service-kit';
import { type Model, Types, type mongo } from 'mongoose';
import { PRODUCT_MODEL, type ProductRecord } from '../products/product.schema';
import {
  DUPLICATE_LINES,
  ID_REUSED,
  INTERRUPTED,
  IN_PROGRESS,
  NOT_FOUND,
  NO_LINES,
  OUT_OF_STOCK,
  RELEASED,
  refuse,
} from './reservation-refusals';
import { applyProductWrite, giveBackStock, takeStock } from './stock-holds';
import { StockReleasingService } from './stock-releasing.service';
import { STOCK_RESERVATION_MODEL, type StockReservationRecord } from './stock-reservation.schema';

const sameLines = (a: StockRequestItem[], b: StockRequestItem[]) =>
  a.length === b.length &&
  a.every((line, i) => line.productId === b[i]?.productId && line.quantity === b[i]?.quantity);

type Reservation = StockReservationRecord;
type TakenProduct = Pick<ProductRecord, 'name' | 'price' | 'image'> & { holds?: { id: string }[] };
type ReserveRequest = { reservationId: string; lines: StockRequestItem[] };
type Answer = (index: number, outcome: ReserveStockReply | Promise<ReserveStockReply>) => void;

/**
 * Takes stock for orders (`products.reserve`): all lines or none, and the same reservation id
 * answers the first result and takes nothing more. A line's take pushes its hold onto the product in
 * the same conditional update (stock-holds.ts); a reserve that cannot finish gives back through
 * `StockReleasingService.settle`.
 */
@Injectable()
export class StockReservingService implements OnModuleInit, OnModuleDestroy {
  // Reserves that arrive while one batch is being written go out together in the next.
  private readonly reserves = new GroupCommit<ReserveRequest, ReserveStockReply>(
    (batch, answer) => this.reserveMany(batch, answer),
    { name: 'stock-reserves' },
  );
  private readonly held = shopCounter(
    'shop.stock.reservations.held',
    'Stock reservations taken for an order',
  );

  constructor(
    @InjectModel(PRODUCT_MODEL) private readonly products: Model<ProductRecord>,
    @InjectModel(STOCK_RESERVATION_MODEL) private readonly reservations: Model<Reservation>,
    private readonly releasing: StockReleasingService,
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

  async reserve(reservationId: string, items: StockRequestItem[]): Promise<ReserveStockReply> {
    const lines = items.map(({ productId, quantity }) => ({ productId, quantity }));
    if (lines.length === 0) refuse(NO_LINES);
    if (new Set(lines.map((line) => line.productId)).size !== lines.length) refuse(DUPLICATE_LINES);
    return this.reserves.add({ reservationId, lines });
  }

  /**
   * The reserves that arrived together, in three writes whatever their number (every write command
   * waits for the one before it on the embedded database, so commands per order bound the orders per
   * second; docs/performance.md, "Orders"): the pending reservations in one
   * insert, every line's take in one bulk update, and the switch to reserved in one bulk update.
   * Each take is still its own conditional update of one product (`takeStock`: never below zero), so
   * batching changes how many commands carry them, not what each may do. One read of the products
   * gives every reply its name, price and image; which takes and switches matched is read back (a
   * bulk write answers counts only) from the holds and states they leave, and only when the counts
   * say that some did not.
   */
  private async reserveMany(batch: ReserveRequest[], answer: Answer): Promise<void> {
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
      batch[index]!.lines.map((line) => takeStock(batch[index]!.reservationId, line, at)),
    );
    // Through the model, so the catalog cache hears which products' stock moved.
    const taken = await this.products.bulkWrite(
      takes.map(({ filter, update }) => ({ updateOne: { filter, update } })),
      { ordered: false, timestamps: false },
    );
    const everyTakeMatched = taken.modifiedCount === takes.length;
    const products = await this.takenProducts(batch, fresh, everyTakeMatched);

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
    if (complete.length > 0) await this.markReserved(batch, complete, answer);
  }

  /** The products of the batch's fresh reserves by id; with their holds' ids unless every take matched. */
  private async takenProducts(
    batch: ReserveRequest[],
    fresh: number[],
    everyTakeMatched: boolean,
  ): Promise<Map<string, TakenProduct>> {
    const ids = [...new Set(fresh.flatMap((index) => batch[index]!.lines.map((line) => line.productId)))];
    const found = await this.products.collection
      .find(
        { _id: { $in: ids.map((id) => new Types.ObjectId(id)) } },
        { projection: { name: 1, price: 1, image: 1, ...(everyTakeMatched ? {} : { 'holds.id': 1 }) } },
      )
      .toArray();
    return new Map(found.map((product) => [String(product._id), product as unknown as TakenProduct]));
  }

  /** Switches the complete reserves from pending to reserved in one bulk update, and answers them. */
  private async markReserved(
    batch: ReserveRequest[],
    complete: { index: number; reply: ReservedItem[] }[],
    answer: Answer,
  ): Promise<void> {
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
    await this.releasing.settle(reservationId, refusal);
    refuse(refusal);
  }

  /**
   * Released while we were taking stock, or taken over by recovery: give it all back. Settling gives
   * back every line still held while the reservation is pending; if recovery had already finished
   * it, our takes may have come after that and are ours to give back (once, whoever does).
   */
  private async interrupted(reservationId: string, lines: StockRequestItem[]): Promise<never> {
    const settled = await this.releasing.settle(reservationId, INTERRUPTED);
    for (const line of lines) await applyProductWrite(this.products, giveBackStock(reservationId, line));
    refuse(settled?.releaseRequested ? RELEASED : (settled?.refusal ?? INTERRUPTED));
  }

  private async repeat(reservationId: string, lines: StockRequestItem[]): Promise<ReserveStockReply> {
    const first = await this.reservations.findById(reservationId).lean<Reservation>();
    if (!first) refuse(IN_PROGRESS);
    if (first.items.length > 0 && !sameLines(first.items, lines)) refuse(ID_REUSED);
    if (first.state === 'reserved' || first.state === 'sold' || first.state === 'closed')
      return { reservationId, items: first.reply ?? [] };
    if (first.state === 'pending') refuse(IN_PROGRESS);
    if (first.state === 'failing' || first.state === 'failed') refuse(first.refusal ?? INTERRUPTED);
    refuse(RELEASED);
  }
}
