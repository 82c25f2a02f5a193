import { withOutbox } from '@shop/service-kit';
import { Schema } from 'mongoose';

/** A pending password reset: the one-time code, hashed, with its expiry and wrong tries. */
export interface PasswordResetRecord {
  codeHash: string;
  expiresAt: Date;
  attempts: number;
}

export interface UserRecord {
  name: string;
  /** Lower-cased; unique among live accounts. */
  email: string;
  passwordHash: string;
  isAdmin: boolean;
  /** Tokens with an `iat` (seconds) below this are refused: set by a password reset or change. */
  sessionsValidFrom: number;
  passwordReset?: PasswordResetRecord | null;
  /**
   * Set when an admin deletes the account. The record stays, anonymised, only until the relay has
   * published its `user.deleted` event from the outbox inside it; then it is purged.
   */
  deletedAt?: Date | null;
}

export const USER_MODEL = 'User';

const passwordResetSchema = new Schema<PasswordResetRecord>(
  {
    codeHash: { type: String, required: true },
    expiresAt: { type: Date, required: true },
    attempts: { type: Number, required: true, default: 0 },
  },
  { _id: false },
);

export const userSchema = new Schema<UserRecord>(
  {
    name: { type: String, required: true, trim: true, maxlength: 100 },
    email: { type: String, required: true, unique: true, lowercase: true, trim: true, maxlength: 254 },
    passwordHash: { type: String, required: true, select: false },
    isAdmin: { type: Boolean, required: true, default: false },
    sessionsValidFrom: { type: Number, required: true, default: 0 },
    passwordReset: { type: passwordResetSchema, default: null, select: false },
    deletedAt: { type: Date, default: null, index: true },
  },
  { timestamps: true, versionKey: false },
);
withOutbox(userSchema);
