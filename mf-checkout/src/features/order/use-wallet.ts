import { type PaymentMethod, WALLET_API, type Wallet } from '@shop/contracts';
import { loadedList, useApiGet } from '@shop/ui';

export type WalletState =
  | { status: 'loading' }
  | { status: 'failed'; message: string }
  /** `wallet` is undefined when the shop has none for the method. */
  | { status: 'loaded'; wallet: Wallet | undefined };

/** Where an order of this method is paid to (`GET /api/wallet/all-wallets`); asked only while `needed`. */
export function useWallet(paymentMethod: PaymentMethod, needed: boolean): WalletState {
  const wallets = useApiGet<Wallet[]>(needed ? `${WALLET_API}/all-wallets` : null);
  if (wallets.status !== 'loaded') return wallets;
  return { status: 'loaded', wallet: loadedList(wallets).find((w) => w.paymentMethod === paymentMethod) };
}
