import {
  PAYMENT_METHODS,
  type PaymentMethod,
  WALLET_DETAILS_MAX_LENGTH,
  MEDIA_URL_MAX_LENGTH,
} from '@shop/contracts';
import { type OutboxEntry, withOutbox } from '@shop/service-kit';
import { Schema, type Types } from 'mongoose';

export interface WalletRecord {
  _id: Types.ObjectId;
  /** One wallet per payment method of the payment screen. */
  paymentMethod: PaymentMethod;
  paymentDetails: string;
  qrCode: string;
  createdAt: Date;
  updatedAt: Date;
  /** Events waiting for the relay (`withOutbox`); never selected by reads. */
  outbox?: OutboxEntry[];
}

export const WALLET_MODEL = 'Wallet';

export const walletSchema = new Schema<WalletRecord>(
  {
    paymentMethod: { type: String, required: true, enum: PAYMENT_METHODS, unique: true },
    paymentDetails: { type: String, default: '', maxlength: WALLET_DETAILS_MAX_LENGTH },
    qrCode: { type: String, default: '', maxlength: MEDIA_URL_MAX_LENGTH },
  },
  { timestamps: true, versionKey: false, collection: 'wallets' },
);
withOutbox(walletSchema);
