import type { StockRequestItem } from '@shop/contracts';
import type { Model, QueryFilter, UpdateQuery } from 'mongoose';
import type { ProductRecord } from '../products/product.schema';
import type { ReservationState } from './stock-reservation.schema';

/** One atomic single-document write on a product: the filter decides whether the update happens. */
export interface ProductWrite {
  filter: QueryFilter<ProductRecord>;
  update: UpdateQuery<ProductRecord>;
}

/**
 * Takes a line's stock and records the hold in the same update: it matches only a live product with
 * enough stock that this reservation does not hold yet, so stock never goes below zero and a
 * reservation never takes the same product twice.
 */
export function takeStock(reservationId: string, line: StockRequestItem, at: Date): ProductWrite {
  return {
    filter: {
      _id: line.productId,
      deletedAt: null,
      countInStock: { $gte: line.quantity },
      'holds.id': { $ne: reservationId },
    },
    update: {
      $inc: { countInStock: -line.quantity },
      $push: { holds: { id: reservationId, quantity: line.quantity, at } },
    },
  };
}

/**
 * Gives a line's stock back and removes its hold in the same update. It matches only while the hold
 * is there, so however often and by whomever it is sent, the stock comes back once. A deleted
 * product gets its units back too (harmless, and the hold must go).
 */
export function giveBackStock(reservationId: string, line: StockRequestItem): ProductWrite {
  return {
    filter: { _id: line.productId, holds: { $elemMatch: { id: reservationId, quantity: line.quantity } } },
    update: {
      $inc: { countInStock: line.quantity },
      $pull: { holds: { id: reservationId } },
    },
  };
}

/** Forgets a hold whose stock left the shop for good (its order was delivered): no stock change. */
export function dropHold(reservationId: string, productId: string): ProductWrite {
  return {
    filter: { _id: productId, 'holds.id': reservationId },
    update: { $pull: { holds: { id: reservationId } } },
  };
}

export type StrayHoldAction = 'give-back' | 'drop' | 'keep';

/**
 * What a hold found on a product means, given its reservation's state. Failed and released
 * reservations hold nothing, so a hold left for one (a reserve that stalled past its take-over,
 * took a unit and died before giving it back) is given back; a closed one's hold is dropped. Every
 * other state is still at work or legitimately holds its stock (a sold one until its order is
 * delivered); an unknown reservation is left alone rather than guessed at.
 */
export function strayHoldAction(state: ReservationState | undefined): StrayHoldAction {
  switch (state) {
    case 'failed':
    case 'released':
      return 'give-back';
    case 'closed':
      return 'drop';
    default:
      return 'keep';
  }
}

/**
 * Applies one product write through the model (so the catalog cache hears of it); answers whether it
 * changed the product. Stock moves are not edits: they leave `updatedAt` alone.
 */
export async function applyProductWrite(
  products: Model<ProductRecord>,
  { filter, update }: ProductWrite,
): Promise<boolean> {
  const result = await products.updateOne(filter, update, { timestamps: false });
  return result.modifiedCount === 1;
}
