import type { Wallet } from '@shop/contracts';
import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { imageFile, mediaUrl, renderScreen, ScriptedUpload, stubApi } from '@shop/ui/testing';
import WalletUpdatePage from '../wallet-update-page';

const OLD_QR = mediaUrl('old-qr.png');
const NEW_QR = mediaUrl('new-qr.png', '0123456789abcdef01234568');

const wallets: Wallet[] = [
  { _id: 'w1', paymentMethod: 'bitcoin', paymentDetails: 'bc1-old', qrCode: OLD_QR },
  { _id: 'w2', paymentMethod: 'cashapp', paymentDetails: '$shop', qrCode: '' },
];

const renderWallets = () => renderScreen(<WalletUpdatePage />, { path: '/wallet-update' });

describe('Wallet Update screen', () => {
  const uploads = ScriptedUpload.forEachTest();
  afterEach(() => vi.unstubAllGlobals());

  it('shows each payment method with its details and QR code', async () => {
    stubApi({ 'GET /api/wallet/all-wallets': { body: wallets } });
    renderWallets();

    const bitcoin = within(await screen.findByRole('form', { name: 'bitcoin' }));
    expect(bitcoin.getByLabelText('Payment Details')).toHaveValue('bc1-old');
    expect(bitcoin.getByRole('img', { name: 'bitcoin QR code' })).toHaveAttribute('src', OLD_QR);
    const cashapp = within(screen.getByRole('form', { name: 'cashapp' }));
    expect(cashapp.getByText('No image')).toBeInTheDocument();
    expect(cashapp.getByRole('button', { name: 'Save Changes' })).toBeInTheDocument();
  });

  it('uploads a new QR code with progress and a preview, then saves the wallet with it', async () => {
    const api = stubApi({
      'GET /api/wallet/all-wallets': { body: wallets },
      'PUT /api/wallet/update-wallet': { body: { ...wallets[0], paymentDetails: 'bc1-new', qrCode: NEW_QR } },
    });
    renderWallets();
    const bitcoin = within(await screen.findByRole('form', { name: 'bitcoin' }));

    await userEvent.upload(bitcoin.getByLabelText('QR Code'), imageFile('new-qr.png'));
    act(() => uploads[0]!.progress(60));
    expect(bitcoin.getByRole('progressbar', { name: 'Upload of the QR Code' })).toHaveValue(60);
    expect(bitcoin.getByRole('button', { name: 'Save Changes' })).toBeDisabled();
    act(() => uploads[0]!.answer(201, { url: NEW_QR }));
    expect(await screen.findByText('Image uploaded successfully')).toBeInTheDocument();
    expect(bitcoin.getByRole('img', { name: 'bitcoin QR code' })).toHaveAttribute('src', NEW_QR);

    await userEvent.clear(bitcoin.getByLabelText('Payment Details'));
    await userEvent.type(bitcoin.getByLabelText('Payment Details'), 'bc1-new');
    await userEvent.click(bitcoin.getByRole('button', { name: 'Save Changes' }));

    expect(await screen.findByText('Wallet updated successfully')).toBeInTheDocument();
    expect(api.callsTo('PUT', '/api/wallet/update-wallet')[0]?.body).toEqual({
      coin: 'bitcoin',
      walletId: 'bc1-new',
      qrCode: NEW_QR,
    });
  });

  it('says a failed upload failed and keeps the QR code in effect', async () => {
    stubApi({ 'GET /api/wallet/all-wallets': { body: wallets } });
    renderWallets();
    const bitcoin = within(await screen.findByRole('form', { name: 'bitcoin' }));

    await userEvent.upload(bitcoin.getByLabelText('QR Code'), imageFile('huge.png'));
    act(() => uploads[0]!.answer(413, { message: 'Image too large (3 MB max)' }));

    expect(await bitcoin.findByRole('alert')).toHaveTextContent(
      'Image upload failed: Image too large (3 MB max)',
    );
    expect(bitcoin.getByRole('img', { name: 'bitcoin QR code' })).toHaveAttribute('src', OLD_QR);
  });

  it('shows a refused save as an error toast, keeping the input', async () => {
    stubApi({
      'GET /api/wallet/all-wallets': { body: wallets },
      'PUT /api/wallet/update-wallet': { status: 400, body: { message: 'walletId is required' } },
    });
    renderWallets();
    const cashapp = within(await screen.findByRole('form', { name: 'cashapp' }));

    await userEvent.type(cashapp.getByLabelText('Payment Details'), '-tips');
    await userEvent.click(cashapp.getByRole('button', { name: 'Save Changes' }));

    expect(await screen.findByText('walletId is required')).toBeInTheDocument();
    expect(cashapp.getByLabelText('Payment Details')).toHaveValue('$shop-tips');
  });

  it('shows a spinner, then the red alert when the wallets cannot be read', async () => {
    stubApi({ 'GET /api/wallet/all-wallets': { status: 503, body: { message: 'Wallets are unavailable' } } });
    renderWallets();

    expect(screen.getByRole('status')).toHaveTextContent('Loading...');
    expect(await screen.findByRole('alert')).toHaveTextContent('Wallets are unavailable');
  });
});
