import type { Wallet } from '@shop/contracts';
import { Button, LoadingBox, MessageBox, VisuallyHidden } from '@shop/ui';
import { QRCodeSVG } from 'qrcode.react';
import { toast } from 'react-toastify';
import styles from './order-page.module.css';
import type { WalletState } from './use-wallet';

const QR_NAME = 'Payment QR code';
const QR_SIZE = 192;

/** A long wallet address as its start and end, the way wallets show them: `bc1qxy2kgd…fjhx0wlh`. */
function truncateDetails(details: string): string {
  return details.length <= 24 ? details : `${details.slice(0, 12)}…${details.slice(-8)}`;
}

async function copyDetails(details: string) {
  try {
    // Missing outside secure contexts: that is a failure to copy too.
    await navigator.clipboard.writeText(details);
    toast.success('Payment details copied!');
  } catch {
    toast.error('Failed to copy!');
  }
}

function WalletQr({ wallet }: { wallet: Wallet }) {
  if (wallet.qrCode) {
    return (
      <img src={wallet.qrCode} alt={QR_NAME} width={QR_SIZE} height={QR_SIZE} className={styles['qr']} />
    );
  }
  return (
    <QRCodeSVG
      value={wallet.paymentDetails}
      size={QR_SIZE}
      marginSize={2}
      title={QR_NAME}
      role="img"
      aria-label={QR_NAME}
      className={styles['qr']}
    />
  );
}

/**
 * Where to send the payment of an unpaid order: the wallet's uploaded QR image, else a QR code made in
 * the browser from its payment details, and the details (shortened) with a copy button.
 */
export function WalletPanel({ state }: { state: WalletState }) {
  if (state.status === 'loading') return <LoadingBox label="Loading the wallet..." />;
  if (state.status === 'failed') return <MessageBox variant="danger">{state.message}</MessageBox>;
  const { wallet } = state;
  if (!wallet || (!wallet.paymentDetails && !wallet.qrCode)) {
    return <MessageBox variant="warning">Wallet not configured yet</MessageBox>;
  }
  return (
    <div className={styles['wallet']}>
      <WalletQr wallet={wallet} />
      {wallet.paymentDetails && (
        <div className={styles['details']}>
          <code title={wallet.paymentDetails}>
            <span aria-hidden="true">{truncateDetails(wallet.paymentDetails)}</span>
            <VisuallyHidden>{wallet.paymentDetails}</VisuallyHidden>
          </code>
          <Button
            variant="secondary"
            aria-label="Copy payment details"
            onClick={() => void copyDetails(wallet.paymentDetails)}
          >
            Copy
          </Button>
        </div>
      )}
    </div>
  );
}
