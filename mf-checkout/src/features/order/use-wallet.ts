import type { PaymentMethod, Wallet } from '@shop/contracts';
import { apiFetch } from '@shop/state';
import { useEffect, useState } from 'react';
import { errorMessage } from '../../shared/error-message';

export type WalletState =
  | { status: 'loading' }
  | { status: 'failed'; message: string }
  /** `wallet` is undefined when the shop has none for the method. */
  | { status: 'loaded'; wallet: Wallet | undefined };

/** Where an order of this method is paid to (`GET /api/wallet/all-wallets`); asked only while `needed`. */
export function useWallet(paymentMethod: PaymentMethod, needed: boolean): WalletState {
  const [state, setState] = useState<WalletState>({ status: 'loading' });

  useEffect(() => {
    if (!needed) return;
    const controller = new AbortController();
    apiFetch<Wallet[]>('/api/wallet/all-wallets', { signal: controller.signal }).then(
      (wallets) =>
        setState({
          status: 'loaded',
          wallet: Array.isArray(wallets) ? wallets.find((w) => w.paymentMethod === paymentMethod) : undefined,
        }),
      (error: unknown) => {
        if (!controller.signal.aborted) setState({ status: 'failed', message: errorMessage(error) });
      },
    );
    return () => controller.abort();
  }, [paymentMethod, needed]);

  return state;
}
