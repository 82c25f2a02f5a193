import {
  WALLET_API,
  WALLET_DETAILS_MAX_LENGTH,
  type UpdateWalletRequest,
  type Wallet,
} from '@shop/contracts';
import { apiFetch } from '@shop/state';
import { Button, showToast } from '@shop/ui';
import { useId, useState } from 'react';
import shared from '../../shared/admin.module.css';
import { InputField } from '../../shared/field';
import { ImageUploadField, useFormImage } from '../../shared/image-upload-field';
import { useFormSubmit } from '../../shared/use-form-submit';

/** One payment method's wallet: its details and QR code, saved with 'Save Changes'. */
export function WalletForm({ wallet, onSaved }: { wallet: Wallet; onSaved: (wallet: Wallet) => void }) {
  const [details, setDetails] = useState(wallet.paymentDetails);
  const qrCode = useFormImage(wallet.qrCode);
  const id = useId();

  const { busy: saving, submit: save } = useFormSubmit(async () => {
    const body: UpdateWalletRequest = {
      coin: wallet.paymentMethod,
      walletId: details.trim(),
      qrCode: qrCode.url,
    };
    const saved = await apiFetch<Wallet>(`${WALLET_API}/update-wallet`, { method: 'PUT', body });
    showToast('success', 'Wallet updated successfully');
    onSaved(saved);
  });

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
        image={qrCode}
        previewAlt={`${wallet.paymentMethod} QR code`}
        disabled={saving}
      />
      <Button type="submit" disabled={saving || qrCode.uploading}>
        {saving ? 'Saving...' : 'Save Changes'}
      </Button>
    </form>
  );
}
