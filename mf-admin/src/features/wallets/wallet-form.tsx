import {
  WALLET_API,
  WALLET_DETAILS_MAX_LENGTH,
  type UpdateWalletRequest,
  type Wallet,
} from '@shop/contracts';
import { apiFetch } from '@shop/state';
import { Button, errorMessage } from '@shop/ui';
import { useId, useState, type FormEvent } from 'react';
import { toast } from 'react-toastify';
import shared from '../../shared/admin.module.css';
import { ImageUploadField } from '../../shared/image-upload-field';

/** One payment method's wallet: its details and QR code, saved with 'Save Changes'. */
export function WalletForm({ wallet, onSaved }: { wallet: Wallet; onSaved: (wallet: Wallet) => void }) {
  const [details, setDetails] = useState(wallet.paymentDetails);
  const [qrCode, setQrCode] = useState(wallet.qrCode);
  const [saving, setSaving] = useState(false);
  const [uploading, setUploading] = useState(false);
  const id = useId();

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setSaving(true);
    try {
      const body: UpdateWalletRequest = { coin: wallet.paymentMethod, walletId: details.trim(), qrCode };
      const updated = await apiFetch<Wallet>(`${WALLET_API}/update-wallet`, { method: 'PUT', body });
      toast.success('Wallet updated successfully');
      onSaved(updated);
    } catch (error) {
      toast.error(errorMessage(error));
    } finally {
      setSaving(false);
    }
  };

  return (
    <form className={shared['form']} aria-labelledby={`${id}-method`} onSubmit={save}>
      <h2 id={`${id}-method`}>{wallet.paymentMethod}</h2>
      <div className={shared['field']}>
        <label htmlFor={`${id}-details`} className={shared['label']}>
          Payment Details
        </label>
        <input
          id={`${id}-details`}
          className={shared['input']}
          required
          maxLength={WALLET_DETAILS_MAX_LENGTH}
          value={details}
          onChange={(event) => setDetails(event.target.value)}
        />
      </div>
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
