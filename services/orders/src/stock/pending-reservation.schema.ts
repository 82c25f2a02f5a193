import { Schema, type Types } from 'mongoose';

/**
 * Written before a checkout asks products for stock, removed once its order is stored: a record
 * that a reservation under this id may exist without an order. If the order is not there by
 * `due` (the checkout failed, or this process died between the reserve and the insert), the
 * reservation is released. A write-ahead record, because nothing else would ever give that
 * stock back.
 */
export interface PendingReservationRecord {
  /** The reservation id, which is the id the order gets. */
  _id: Types.ObjectId;
  due: Date;
  attempts: number;
  createdAt: Date;
}

export const PENDING_RESERVATION_MODEL = 'PendingReservation';

export const pendingReservationSchema = new Schema<PendingReservationRecord>(
  {
    _id: { type: Schema.Types.ObjectId, required: true },
    due: { type: Date, required: true, index: true },
    attempts: { type: Number, required: true, default: 0 },
    createdAt: { type: Date, required: true },
  },
  { versionKey: false, collection: 'pending_reservations' },
);
