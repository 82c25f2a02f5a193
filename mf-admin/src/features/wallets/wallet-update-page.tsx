import { WALLET_API, type Wallet } from '@shop/contracts';
import { LoadingBox, MessageBox, loadedList, useApiGet } from '@shop/ui';
import { AdminScreen } from '../../shared/admin-screen';
import { WalletForm } from './wallet-form';
import styles from './wallet-update-page.module.css';

/**
 * Wallet update (docs/product/screens.md, "Wallet update"): each payment method's details and QR code,
 * saved one by one.
 */
export default function WalletUpdatePage() {
  const answer = useApiGet<Wallet[]>(`${WALLET_API}/all-wallets`);
  const wallets = loadedList(answer);

  // The saved wallet as the server answered it replaces the old one in place.
  const saved = (wallet: Wallet) =>
    answer.replace((current) => current.map((old) => (old._id === wallet._id ? wallet : old)));

  return (
    <AdminScreen title="Wallet Update">
      {answer.status === 'loading' && <LoadingBox />}
      {answer.status === 'failed' && <MessageBox variant="danger">{answer.message}</MessageBox>}
      {answer.status === 'loaded' &&
        (wallets.length === 0 ? (
          <MessageBox>No data available</MessageBox>
        ) : (
          <div className={styles['wallets']}>
            {wallets.map((wallet) => (
              <WalletForm key={wallet._id} wallet={wallet} onSaved={saved} />
            ))}
          </div>
        ))}
    </AdminScreen>
  );
}
