import {
  WALLET_API,
  WALLET_DETAILS_MAX_LENGTH,
  type UpdateWalletRequest,
  type Wallet,
} from '@shop/contracts';
import { apiFetch } from '@shop/state';
import { Button, showToast, useAction } from '@shop/ui';
import { type FormEvent, useId, useState } from 'react';
import shared from '../../shared/admin.module.css';
import { InputField } from '../../shared/field';
import { ImageUploadField } from '../../shared/image-upload-field';

/** One payment method's wallet: its details and QR code, saved with 'Save Changes'. */
export function WalletForm({ wallet, onSaved }: { wallet: Wallet; onSaved: (wallet: Wallet) => void }) {
  const [details, setDetails] = useState(wallet.paymentDetails);
  const [qrCode, setQrCode] = useState(wallet.qrCode);
  const [uploading, setUploading] = useState(false);
  const id = useId();

  const { busy: saving, run } = useAction();
  const save = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      const body: UpdateWalletRequest = { coin: wallet.paymentMethod, walletId: details.trim(), qrCode };
      const saved = await apiFetch<Wallet>(`${WALLET_API}/update-wallet`, { method: 'PUT', body });
      showToast('success', 'Wallet updated successfully');
      onSaved(saved);
    });
  };

  return (
    <form className={shared['form']} aria-labelledby={`${id}-method`} onSubmit={save}>
      <h2 id={`${id}-method`}>{wallet.paymentMethod}</h2>
      <InputField
        id={`${id}-details`}
        label="Payment Details"
        required
        maxLength={WALLET_DETAILS_MAX_LENGTH}
        value={details}
        onChange={setDetails}
      />
      <ImageUploadField
        label="QR Code"
        url={qrCode}
        previewAlt={`${wallet.paymentMethod} QR code`}
        onUploaded={setQrCode}
        onUploadingChange={setUploading}
        disabled={saving}
      />
      <Button type="submit" disabled={saving || uploading}>
        {saving ? 'Saving...' : 'Save Changes'}
      </Button>
    </form>
  );
}
