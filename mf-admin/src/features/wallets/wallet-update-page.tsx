import { WALLET_API, type Wallet } from '@shop/contracts';
import { apiFetch } from '@shop/state';
import { LoadingBox, MessageBox } from '@shop/ui';
import { useEffect, useState } from 'react';
import shared from '../../shared/admin.module.css';
import { errorMessage, isAbort } from '../../shared/error-message';
import { WalletForm } from './wallet-form';
import styles from './wallet-update-page.module.css';

type Wallets =
  { status: 'loading' } | { status: 'failed'; message: string } | { status: 'loaded'; wallets: Wallet[] };

/** Wallet update (spec §2, admin): each payment method's details and QR code, saved one by one. */
export default function WalletUpdatePage() {
  const [wallets, setWallets] = useState<Wallets>({ status: 'loading' });

  useEffect(() => {
    const controller = new AbortController();
    apiFetch<Wallet[]>(`${WALLET_API}/all-wallets`, { signal: controller.signal }).then(
      (answer) => setWallets({ status: 'loaded', wallets: Array.isArray(answer) ? answer : [] }),
      (error: unknown) => {
        if (!isAbort(error, controller.signal))
          setWallets({ status: 'failed', message: errorMessage(error) });
      },
    );
    return () => controller.abort();
  }, []);

  // The saved wallet as the server answered it replaces the old one in place.
  const saved = (wallet: Wallet) =>
    setWallets((current) =>
      current.status === 'loaded'
        ? { ...current, wallets: current.wallets.map((old) => (old._id === wallet._id ? wallet : old)) }
        : current,
    );

  return (
    <section className={shared['page']}>
      <title>Wallet Update</title>
      <h1 className={shared['heading']}>Wallet Update</h1>
      {wallets.status === 'loading' && <LoadingBox />}
      {wallets.status === 'failed' && <MessageBox variant="danger">{wallets.message}</MessageBox>}
      {wallets.status === 'loaded' &&
        (wallets.wallets.length === 0 ? (
          <MessageBox>No data available</MessageBox>
        ) : (
          <div className={styles['wallets']}>
            {wallets.wallets.map((wallet) => (
              <WalletForm key={wallet._id} wallet={wallet} onSaved={saved} />
            ))}
          </div>
        ))}
    </section>
  );
}
