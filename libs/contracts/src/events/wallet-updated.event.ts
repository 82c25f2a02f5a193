import { z } from 'zod';
import { id, text } from '../messages/fields';
import type { EventEnvelope } from './event-envelope';

export const WALLET_UPDATED = 'wallet.updated';

/** An admin changed the payment details or QR code of a payment method's wallet. */
export const walletUpdatedData = z.strictObject({
  walletId: id('The wallet'),
  paymentMethod: text(),
  paymentDetails: text(),
  qrCode: text(),
});

export type WalletUpdatedEvent = EventEnvelope<typeof WALLET_UPDATED, z.infer<typeof walletUpdatedData>>;
