import type { Schema } from '../http/api-types';

/** Where the wallet API is reachable, relative to the site root. */
export const WALLET_API = '/api/wallet';

/** Longest payment details (a wallet address, cashtag or Apple Pay contact) an admin may enter. */
export const WALLET_DETAILS_MAX_LENGTH = 200;

/** Where a customer sends a manual payment for one payment method (docs/product/data.md, "Wallet"). */
export type Wallet = Schema<'WalletResponse'>;

/** Body of `PUT api/wallet/update-wallet` (admin). */
export type UpdateWalletRequest = Schema<'UpdateWalletDto'>;
