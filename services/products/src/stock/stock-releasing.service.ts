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
 * Ends reservations: gives their stock back (`products.release`, a refused or interrupted reserve,
 * the recovery pass) or sells it (`order.paid` with status Paid). Every give-back pulls the line's
 * hold in the same update that returns its units (stock-holds.ts), so it happens once whoever sends it.
 */
@Injectable()
export class StockReleasingService {
  private readonly released = shopCounter(
    'shop.stock.reservations.released',
    'Stock reservations given back (an order not placed, or deleted unpaid)',
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
    for (const line of sold.items)
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

  /** Gives back every line of a failing or releasing reservation, then marks it failed or released. */
  async finish(reservation: Reservation): Promise<void> {
    if (reservation.state !== 'failing' && reservation.state !== 'releasing') return;
    for (const line of reservation.items)
      await applyProductWrite(this.products, giveBackStock(reservation._id, line));
    await this.reservations.updateOne(
      { _id: reservation._id, state: reservation.state },
      { $set: { state: reservation.state === 'failing' ? 'failed' : 'released' } },
    );
  }
}
