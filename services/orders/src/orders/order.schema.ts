import {
  ORDER_STATUSES,
  type Order,
  type OrderItem,
  PAYMENT_METHODS,
  type ShippingAddress,
} from '@shop/contracts';
import { type OutboxEntry, withOutbox } from '@shop/service-kit';
import { Schema, type Types } from 'mongoose';

/**
 * `none`: the order keeps its stock. `pending`: it was cancelled, or deleted unpaid, and its stock must
 * go back to the catalogue (retried until products confirms). `done`: the catalogue took it back.
 */
export type StockReleaseState = 'none' | 'pending' | 'done';

/**
 * A stored order: the order the API answers (`Order`, field for field: `toOrder`) with its id and
 * dates as stored, and the bookkeeping the API never shows.
 */
/** One refund an admin recorded (`OrderRefund` as stored). */
export interface RefundRecord {
  _id: Types.ObjectId;
  amountCents: number;
  reference: string;
  reason: string;
  refundedAt: Date;
  /** The admin who recorded it. */
  by: string;
}

export interface OrderRecord extends Omit<
  Order,
  '_id' | 'paidAt' | 'deliveredAt' | 'cancelledAt' | 'refunds' | 'createdAt' | 'updatedAt'
> {
  _id: Types.ObjectId;
  refunds: RefundRecord[];
  paidAt: Date | null;
  deliveredAt: Date | null;
  cancelledAt: Date | null;
  /** Set by an admin's delete: the order is gone for every read, its events still go out. */
  deletedAt: Date | null;
  stockRelease: StockReleaseState;
  createdAt: Date;
  updatedAt: Date;
  /** Events waiting for the relay (`withOutbox`); never selected by reads. */
  outbox?: OutboxEntry[];
}

export const ORDER_MODEL = 'Order';

const orderItemSchema = new Schema<OrderItem>(
  {
    _id: { type: String, required: true },
    name: { type: String, required: true },
    quantity: { type: Number, required: true, min: 1 },
    price: { type: Number, required: true, min: 0 },
    image: { type: String, default: '' },
  },
  { versionKey: false },
);

const shippingAddressSchema = new Schema<ShippingAddress>(
  {
    fullName: { type: String, required: true },
    address: { type: String, required: true },
    city: { type: String, required: true },
    country: { type: String, required: true },
    phoneNumber: { type: String, required: true },
  },
  { _id: false },
);

const refundSchema = new Schema<RefundRecord>(
  {
    amountCents: { type: Number, required: true, min: 1 },
    reference: { type: String, required: true },
    reason: { type: String, required: true },
    refundedAt: { type: Date, required: true },
    by: { type: String, required: true },
  },
  { versionKey: false },
);

export const orderSchema = new Schema<OrderRecord>(
  {
    user: { type: String, required: true, index: true },
    orderItems: { type: [orderItemSchema], required: true },
    shippingAddress: { type: shippingAddressSchema, required: true },
    paymentMethod: { type: String, required: true, enum: PAYMENT_METHODS },
    itemsPrice: { type: Number, required: true, min: 0 },
    taxPrice: { type: Number, required: true, min: 0 },
    discount: { type: Number, required: true, min: 0, default: 0 },
    shippingPrice: { type: Number, required: true, min: 0, default: 0 },
    totalPrice: { type: Number, required: true, min: 0 },
    isPaid: { type: Boolean, required: true, default: false },
    paidAt: { type: Date, default: null },
    isDelivered: { type: Boolean, required: true, default: false },
    deliveredAt: { type: Date, default: null },
    status: { type: String, required: true, enum: ORDER_STATUSES, default: 'Not paid' },
    paymentReceipt: { type: String, default: '' },
    // Orders stored before cancellation existed have neither: read as not cancelled (toOrder).
    isCancelled: { type: Boolean, required: true, default: false },
    cancelledAt: { type: Date, default: null },
    // Orders stored before refunds existed have neither: read as nothing refunded (toOrder).
    refundedCents: { type: Number, required: true, min: 0, default: 0 },
    refunds: { type: [refundSchema], default: [] },
    deletedAt: { type: Date, default: null },
    stockRelease: { type: String, enum: ['none', 'pending', 'done'], default: 'none', index: true },
  },
  { timestamps: true, versionKey: false, collection: 'orders' },
);
orderSchema.index({ createdAt: -1 });
withOutbox(orderSchema);
