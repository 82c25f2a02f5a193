import type { EventEnvelope } from './event-envelope';

export const WALLET_UPDATED = 'wallet.updated';

/** An admin changed the payment details or QR code of a payment method's wallet. */
export type WalletUpdatedEvent = EventEnvelope<
  typeof WALLET_UPDATED,
  { walletId: string; paymentMethod: string; paymentDetails: string; qrCode: string }
>;
