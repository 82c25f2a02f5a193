import type { PaymentMethod } from '../orders/pricing';

/** Where the wallet API is reachable, relative to the site root. */
export const WALLET_API = '/api/wallet';

/** Longest payment details (a wallet address, cashtag or Apple Pay contact) an admin may enter. */
export const WALLET_DETAILS_MAX_LENGTH = 200;

/** Where a customer sends a manual payment for one payment method (docs/product/data.md, "Wallet"). */
export interface Wallet {
  _id: string;
  /** The coin or payment method, one of the payment screen's choices. */
  paymentMethod: PaymentMethod;
  /** The wallet id, address or handle to pay to. */
  paymentDetails: string;
  /** QR code image URL (one of our media URLs), or ''. */
  qrCode: string;
}

/** Body of `PUT api/wallet/update-wallet` (admin). */
export interface UpdateWalletRequest {
  /** Which payment method's wallet. */
  coin: PaymentMethod;
  /** The new payment details. */
  walletId: string;
  /** One of our media URLs, or '' for none. */
  qrCode: string;
}
