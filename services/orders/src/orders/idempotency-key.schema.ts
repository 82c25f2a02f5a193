import { Schema, type Types } from 'mongoose';

/**
 * One `Idempotency-Key` a customer used: which order it placed and a fingerprint of the request,
 * so a retry answers that order and a different request under the same key is refused. The key is
 * the `_id` (`<userId>:<key>`), which makes concurrent retries collide on the unique index.
 */
export interface IdempotencyKeyRecord {
  _id: string;
  orderId: Types.ObjectId;
  fingerprint: string;
  createdAt: Date;
}

export const IDEMPOTENCY_KEY_MODEL = 'IdempotencyKey';

export const idempotencyKeySchema = new Schema<IdempotencyKeyRecord>(
  {
    _id: { type: String, required: true },
    orderId: { type: Schema.Types.ObjectId, required: true },
    fingerprint: { type: String, required: true },
    createdAt: { type: Date, required: true, index: true },
  },
  { versionKey: false, collection: 'idempotency_keys' },
);
