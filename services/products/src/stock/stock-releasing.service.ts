import { Inject, Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { ReleaseStockReply } from '@shop/contracts';
import { SERVICE_CONTEXT, type ServiceContext, isDuplicateKey, shopCounter } from '@shop/service-kit';
import type { Model } from 'mongoose';
import { PRODUCT_MODEL, type ProductRecord } from '../products/product.schema';
import { IN_PROGRESS, refuse } from './reservation-refusals';
import { applyProductWrite, dropHold, giveBackStock } from './stock-holds';
import {
  type ReservationRefusal,
  STOCK_RESERVATION_MODEL,
  type StockReservationRecord,
} from './stock-reservation.schema';

type Reservation = StockReservationRecord;

/**
 * Ends reservations: gives their stock back (`products.release`: an order not placed, deleted unpaid,
 * or cancelled before delivery; a refused or interrupted reserve; the recovery pass), sells it
 * (`order.paid` with status Paid: the holds stay, the order may still be cancelled) or closes it
 * (`order.delivered`, or `order.deleted` of a paid order: the holds go). Every give-back pulls the
 * line's hold in the same update that returns its units (stock-holds.ts), so it happens once whoever
 * sends it, and never after the holds were dropped.
 */
@Injectable()
export class StockReleasingService {
  private readonly released = shopCounter(
    'shop.stock.reservations.released',
    'Stock reservations given back (an order not placed, deleted unpaid, or cancelled)',
  );

  constructor(
    @InjectModel(PRODUCT_MODEL) private readonly products: Model<ProductRecord>,
    @InjectModel(STOCK_RESERVATION_MODEL) private readonly reservations: Model<Reservation>,
    @Inject(SERVICE_CONTEXT) private readonly context: ServiceContext,
  ) {}

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
      if (current.state === 'reserved' || current.state === 'sold') {
        // A sold reservation's order was cancelled (or refunded) before delivery: its holds are there
        // (kept since order.paid), so its stock comes back through them, once.
        const flipped = await this.reservations
          .findOneAndUpdate(
            { _id: reservationId, state: current.state },
            { $set: { state: 'releasing' } },
            { returnDocument: 'after' },
          )
          .lean<Reservation>();
        if (!flipped) continue;
        const givenBack = await this.finish(flipped);
        if (current.state === 'sold' && givenBack === 0) {
          // Sold before holds were kept after payment (an earlier build dropped them at order.paid).
          this.context.logger.warn(
            { reservationId },
            'a paid order was cancelled, but its stock was sold before holds were kept: none given back',
          );
          return { reservationId, released: false };
        }
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
      if (current.state === 'closed') {
        // Its order was delivered (or deleted once paid): orders never releases one; the stock stays sold.
        this.context.logger.warn({ reservationId }, 'refusing to release the stock of a delivered order');
      }
      return { reservationId, released: false };
    }
    refuse(IN_PROGRESS);
  }

  /**
   * The reservation's order was paid for good (`order.paid` with status Paid). Its holds stay on the
   * products: until the order is delivered it may be cancelled, and then its stock comes back through
   * them (`release`). Idempotent; answers whether the reservation is sold (or closed already, its
   * delivery heard first).
   */
  async sell(reservationId: string): Promise<boolean> {
    const sold = await this.reservations
      .findOneAndUpdate({ _id: reservationId, state: 'reserved' }, { $set: { state: 'sold' } })
      .lean<Reservation>();
    if (sold) return true;
    const current = await this.reservations.findById(reservationId).select('state').lean<Reservation>();
    if (current?.state === 'sold' || current?.state === 'closed') return true;
    if (current) {
      // Paid, yet given back: cancelled before its payment was heard of. The cancellation stands.
      this.context.logger.warn(
        { reservationId, state: current.state },
        'a paid order whose stock reservation is not held',
      );
    }
    return false;
  }

  /**
   * The reservation's stock left the shop for good (`order.delivered`, or `order.deleted` of a paid
   * order): the products forget its holds without changing their stock, and a later release gives
   * nothing back. From `sold`, or from `reserved` when the delivery is heard before the payment (two
   * consumers, no order between them). Idempotent; answers whether the reservation is closed.
   */
  async close(reservationId: string): Promise<boolean> {
    const closing =
      (await this.reservations
        .findOneAndUpdate(
          { _id: reservationId, state: { $in: ['reserved', 'sold'] } },
          { $set: { state: 'closed' } },
          { returnDocument: 'after' },
        )
        .lean<Reservation>()) ??
      (await this.reservations.findOne({ _id: reservationId, state: 'closed' }).lean<Reservation>());
    if (!closing) return false;
    // Dropped again on a repeat: a crash may have come between the state and the holds.
    for (const line of closing.items)
      await applyProductWrite(this.products, dropHold(reservationId, line.productId));
    return true;
  }

  /**
   * Ends a pending reservation without success: released if a release asked for it, failed with
   * `refusal` otherwise, and gives back what it holds: every requested line whose hold is on its
   * product, recorded in `taken` or not (a crash may have come between the two).
   */
  async settle(reservationId: string, refusal: ReservationRefusal): Promise<Reservation | null> {
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

  /**
   * Gives back every line of a failing or releasing reservation that its hold is still there for, then
   * marks it failed or released; answers how many lines this call gave back.
   */
  async finish(reservation: Reservation): Promise<number> {
    if (reservation.state !== 'failing' && reservation.state !== 'releasing') return 0;
    let givenBack = 0;
    for (const line of reservation.items) {
      if (await applyProductWrite(this.products, giveBackStock(reservation._id, line))) givenBack += 1;
    }
    await this.reservations.updateOne(
      { _id: reservation._id, state: reservation.state },
      { $set: { state: reservation.state === 'failing' ? 'failed' : 'released' } },
    );
    return givenBack;
  }
}
