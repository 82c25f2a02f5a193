import type { ReservedItem, StockRequestItem } from '@shop/contracts';
import { Schema } from 'mongoose';

/**
 * - `pending`: stock is being taken; `taken` lists the lines taken so far.
 * - `reserved`: every line was taken; `reply` is what the caller got.
 * - `failing` → `failed`: refused (`refusal`); what had been taken is being / has been given back.
 * - `releasing` → `released`: released (an order not placed, deleted unpaid, or cancelled); the stock
 *   is being / has been given back.
 * - `sold`: its order's payment was confirmed (`order.paid`, status Paid). The products keep its holds:
 *   the order may still be cancelled or refunded before delivery, and then the stock comes back
 *   (`releasing`), once, through those holds.
 * - `closed`: its stock left the shop for good (`order.delivered`, or `order.deleted` of a paid
 *   order): the products' holds of it are being / have been dropped; nothing comes back.
 *
 * The stock itself is recorded on the products (`ProductRecord.holds`), in the same write that moves
 * it; this document is the record of the state, the reply and the request (for idempotency).
 */
export type ReservationState =
  'pending' | 'reserved' | 'failing' | 'failed' | 'releasing' | 'released' | 'sold' | 'closed';

export interface ReservationRefusal {
  status: number;
  message: string;
}

export interface StockReservationRecord {
  /** The caller's reservation id (orders use the order id). */
  _id: string;
  state: ReservationState;
  /** The lines as asked for. */
  items: StockRequestItem[];
  /** Lines taken so far, written right after each take (also how a stalled reserve learns it was taken over). */
  taken: StockRequestItem[];
  /**
   * Always true: every reservation records its stock as holds on the products. Still written because
   * builds before decision 0018 read a reservation without it as one made before holds, and may run
   * beside this one during an update; nothing in this build reads it.
   */
  holdsOnProducts?: boolean;
  /** A release arrived while the reservation was pending: whoever finishes it gives the stock back. */
  releaseRequested: boolean;
  reply?: ReservedItem[];
  refusal?: ReservationRefusal;
  /** When a recovery pass last took the reservation over. */
  recoveredAt?: Date;
  createdAt: Date;
  updatedAt: Date;
}

export const STOCK_RESERVATION_MODEL = 'StockReservation';

const lineSchema = new Schema<StockRequestItem>(
  { productId: { type: String, required: true }, quantity: { type: Number, required: true } },
  { _id: false },
);

const reservedItemSchema = new Schema<ReservedItem>(
  {
    productId: String,
    name: String,
    price: Number,
    image: String,
    quantity: Number,
  },
  { _id: false },
);

export const stockReservationSchema = new Schema<StockReservationRecord>(
  {
    _id: { type: String, required: true },
    state: { type: String, required: true },
    items: { type: [lineSchema], default: [] },
    taken: { type: [lineSchema], default: [] },
    holdsOnProducts: { type: Boolean },
    releaseRequested: { type: Boolean, default: false },
    reply: { type: [reservedItemSchema], default: undefined },
    refusal: { type: { status: Number, message: String, _id: false }, default: undefined },
    recoveredAt: Date,
  },
  { timestamps: true, versionKey: false, collection: 'stock_reservations' },
);

// The recovery pass looks for reservations left pending, failing or releasing.
stockReservationSchema.index({ state: 1, updatedAt: 1 });
