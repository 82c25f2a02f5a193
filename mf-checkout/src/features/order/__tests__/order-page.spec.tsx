import { NEW_ORDER_STATE, ORDERS_API, type Order, WALLET_API, type Wallet } from '@shop/contracts';
import { formatDate, siteSettingsAtom } from '@shop/state';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createStore } from 'jotai';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ScriptedUpload, type StubAnswer, json, renderScreen, stubApi } from '@shop/ui/testing';
import { TEST_ADDRESS } from '../../../testing/shopper';
import OrderPage from '../order-page';

const ID = '64b0000000000000000000aa';
const RECEIPT = '/api/media/64b0000000000000000000ff/receipt.png';
const ADDRESS = 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh';

const unpaid: Order = {
  _id: ID,
  user: 'u1',
  orderItems: [{ _id: 'p1', name: 'Glock 19', quantity: 2, price: 599.99, image: '/g19.jpg' }],
  shippingAddress: TEST_ADDRESS,
  paymentMethod: 'bitcoin',
  itemsPrice: 1199.98,
  taxPrice: 12,
  discount: 120,
  shippingPrice: 0,
  totalPrice: 1091.98,
  ...NEW_ORDER_STATE,
  refunds: [],
  createdAt: '2026-03-01T10:00:00.000Z',
  updatedAt: '2026-03-01T10:00:00.000Z',
};
const pending: Order = {
  ...unpaid,
  isPaid: true,
  paidAt: '2026-03-02T15:30:00.000Z',
  status: 'Pending',
  paymentReceipt: RECEIPT,
};

const wallet = (overrides: Partial<Wallet> = {}): Wallet => ({
  _id: 'w1',
  paymentMethod: 'bitcoin',
  paymentDetails: ADDRESS,
  qrCode: '',
  ...overrides,
});

const CANCELLED_AT = '2026-03-03T09:00:00.000Z';
const cancelled: Order = { ...unpaid, isCancelled: true, cancelledAt: CANCELLED_AT };

/** Answers the order and wallet calls; `pay` answers `PUT .../pay`, `cancel` `PUT .../cancel`. */
function serve(
  order: Order | StubAnswer,
  wallets: Wallet[] = [wallet()],
  pay?: () => StubAnswer,
  cancel?: () => StubAnswer,
) {
  return stubApi({
    [`GET ${WALLET_API}/all-wallets`]: json(200, wallets),
    [`PUT ${ORDERS_API}/${ID}/pay`]: () => pay?.(),
    [`PUT ${ORDERS_API}/${ID}/cancel`]: () => cancel?.(),
    [`GET ${ORDERS_API}/${ID}`]: 'body' in order ? order : json(200, order),
  });
}

function renderOrder(id = ID) {
  const store = createStore();
  store.set(siteSettingsAtom, { websiteName: 'Shop', currency: '$', logo: '' });
  renderScreen(<OrderPage />, { url: `/order/${id}`, path: '/order/:id', store });
}

const receipt = () => new File([new Uint8Array([137, 80, 78, 71])], 'receipt.png', { type: 'image/png' });

describe('Order screen', () => {
  beforeEach(() => localStorage.clear());
  afterEach(() => vi.unstubAllGlobals());

  it('says Order Not Found for a malformed id without asking the server', () => {
    const fetchMock = serve(unpaid);
    renderOrder('not-an-order');
    expect(screen.getByRole('alert')).toHaveTextContent('Order Not Found');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("says Order Not Found for the server's 404 too", async () => {
    serve(json(404, { message: 'Order Not Found' }));
    renderOrder();
    expect(screen.getByRole('status')).toHaveTextContent('Loading...');
    expect(await screen.findByRole('alert')).toHaveTextContent('Order Not Found');
  });

  it("shows a red alert with the server's message when the order cannot be read", async () => {
    serve(json(503, { message: 'Service temporarily unavailable, please try again' }));
    renderOrder();
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Service temporarily unavailable, please try again',
    );
  });

  it('shows shipping, delivery, method, status, items and the stored amounts', async () => {
    serve(unpaid);
    renderOrder();
    expect(await screen.findByRole('heading', { level: 1, name: `Order ${ID}` })).toBeInTheDocument();
    expect(screen.getByText(/1 Main St, Austin, United States of America/)).toBeInTheDocument();
    expect(screen.getByText('Not Delivered')).toBeInTheDocument();
    expect(screen.getByText('Not paid')).toBeInTheDocument();
    expect(screen.getByRole('list', { name: 'Order items' })).toHaveTextContent('2 x $599.99 = $1,199.98');
    const total = screen.getByText('Order Total', { selector: 'dt' }).nextElementSibling;
    expect(total).toHaveTextContent('$1,091.98');
    expect(screen.getByText('Bitcoin Discount', { selector: 'dt' }).nextElementSibling).toHaveTextContent(
      '-$120.00',
    );
  });

  it("shows the wallet's uploaded QR image and the shortened details, and copies them", async () => {
    serve(unpaid, [wallet({ qrCode: '/api/media/64b0000000000000000000ee/qr.png' })]);
    renderOrder();
    const user = userEvent.setup();

    const qr = await screen.findByRole('img', { name: 'Payment QR code' });
    expect(qr.tagName).toBe('IMG');
    expect(qr).toHaveAttribute('src', '/api/media/64b0000000000000000000ee/qr.png');
    expect(screen.getByText('bc1qxy2kgdyg…fjhx0wlh')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Copy payment details' }));
    expect(await screen.findByText('Payment details copied!')).toBeInTheDocument();
    expect(await navigator.clipboard.readText()).toBe(ADDRESS);
  });

  it("says 'Failed to copy!' when the browser refuses the clipboard", async () => {
    serve(unpaid);
    renderOrder();
    const user = userEvent.setup();
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new Error('denied'));

    await user.click(await screen.findByRole('button', { name: 'Copy payment details' }));
    expect(await screen.findByText('Failed to copy!')).toBeInTheDocument();
  });

  it('draws a QR code of the payment details when the wallet has no image', async () => {
    serve(unpaid);
    renderOrder();
    const qr = await screen.findByRole('img', { name: 'Payment QR code' });
    expect(qr.tagName.toLowerCase()).toBe('svg');
  });

  it('says the wallet is not configured when it has neither details nor image', async () => {
    serve(unpaid, [wallet({ paymentDetails: '', qrCode: '' })]);
    renderOrder();
    expect(await screen.findByText('Wallet not configured yet')).toBeInTheDocument();
    expect(screen.queryByRole('img', { name: 'Payment QR code' })).not.toBeInTheDocument();
  });

  it('uploads a receipt with its progress, then marks the order paid: Pending, dated, with the receipt', async () => {
    const fetchMock = serve(unpaid, [wallet()], () => json(200, pending));
    const uploads = ScriptedUpload.install();
    renderOrder();
    const user = userEvent.setup();

    await user.click(await screen.findByRole('button', { name: 'Upload Receipt' }));
    const dialog = screen.getByRole('dialog', { name: 'Upload Receipt' });
    await user.click(within(dialog).getByRole('button', { name: 'Upload' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Please select a receipt to upload');

    await user.upload(within(dialog).getByLabelText(/Payment receipt/), receipt());
    await user.click(within(dialog).getByRole('button', { name: 'Upload' }));
    await waitFor(() => expect(uploads).toHaveLength(1));
    act(() => uploads[0]!.progress(42));
    expect(await within(dialog).findByRole('progressbar', { name: 'Receipt upload' })).toHaveAttribute(
      'value',
      '42',
    );
    expect(within(dialog).getByText('42%')).toBeInTheDocument();
    act(() => uploads[0]!.answer(201, { url: RECEIPT }));
    expect(await within(dialog).findByText('Receipt uploaded successfully')).toBeInTheDocument();
    expect(uploads[0]!.fileName).toBe('receipt.png');

    await user.click(within(dialog).getByRole('button', { name: 'Mark Order As Paid' }));
    expect(await screen.findByText('Order is paid')).toBeInTheDocument();
    const pay = fetchMock.callsTo('PUT', `${ORDERS_API}/${ID}/pay`)[0]!;
    expect(pay.body).toEqual({ orderId: ID, receiptUrl: RECEIPT });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByText('Pending')).toBeInTheDocument();
    expect(screen.getByText(formatDate(pending.paidAt))).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Upload Receipt' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'View payment receipt' })).toBeInTheDocument();
  });

  it("shows the media service's refusal and offers no Mark Order As Paid", async () => {
    serve(unpaid);
    const uploads = ScriptedUpload.install();
    renderOrder();
    const user = userEvent.setup();

    await user.click(await screen.findByRole('button', { name: 'Upload Receipt' }));
    const dialog = screen.getByRole('dialog', { name: 'Upload Receipt' });
    await user.upload(within(dialog).getByLabelText(/Payment receipt/), receipt());
    await user.click(within(dialog).getByRole('button', { name: 'Upload' }));
    await waitFor(() => expect(uploads).toHaveLength(1));
    act(() => uploads[0]!.answer(415, { message: 'Only PNG, JPEG, WebP and GIF images are accepted' }));

    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Only PNG, JPEG, WebP and GIF images are accepted',
    );
    expect(await screen.findByText('Failed to upload receipt')).toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: 'Mark Order As Paid' })).not.toBeInTheDocument();
  });

  it('shows a paid order with its date, green status and receipt, and asks for no wallet', async () => {
    const fetchMock = serve({ ...pending, status: 'Paid' });
    renderOrder();
    const user = userEvent.setup();

    expect(await screen.findByText('Paid')).toBeInTheDocument();
    expect(screen.getByText(formatDate(pending.paidAt))).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Upload Receipt' })).not.toBeInTheDocument();
    expect(fetchMock.urls()).not.toContain(`${WALLET_API}/all-wallets`);

    await user.click(screen.getByRole('button', { name: 'View payment receipt' }));
    const dialog = screen.getByRole('dialog', { name: 'Payment Receipt' });
    expect(within(dialog).getByRole('img')).toHaveAttribute('src', RECEIPT);
  });

  it('shows what the shop refunded, each refund with its date and reference', async () => {
    serve({
      ...pending,
      status: 'Paid',
      refundedCents: 30_000,
      refunds: [
        {
          _id: 'r1',
          amountCents: 10_000,
          reference: 'TX-1',
          reason: 'Late',
          refundedAt: '2026-03-04T10:00:00.000Z',
        },
        {
          _id: 'r2',
          amountCents: 20_000,
          reference: 'TX-2',
          reason: 'Box',
          refundedAt: '2026-03-05T10:00:00.000Z',
        },
      ],
    });
    renderOrder();

    expect(await screen.findByText('Refunded:')).toBeInTheDocument();
    expect(screen.getByText('Refunded:').parentElement).toHaveTextContent('Refunded: $300.00 of $1,091.98');
    expect(
      within(screen.getByRole('list', { name: 'Refunds' }))
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      `$100.00 on ${formatDate('2026-03-04T10:00:00.000Z')}, reference TX-1`,
      `$200.00 on ${formatDate('2026-03-05T10:00:00.000Z')}, reference TX-2`,
    ]);
  });

  it('cancels an unpaid order once the shopper confirms: shown cancelled, nothing left to pay', async () => {
    const fetchMock = serve(unpaid, [wallet()], undefined, () => json(200, cancelled));
    renderOrder();
    const user = userEvent.setup();

    await user.click(await screen.findByRole('button', { name: 'Cancel Order' }));
    const dialog = screen.getByRole('dialog', { name: 'Cancel this order?' });
    // Keeping it asks nothing of the server.
    await user.click(within(dialog).getByRole('button', { name: 'Keep Order' }));
    expect(fetchMock.callsTo('PUT', `${ORDERS_API}/${ID}/cancel`)).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Cancel Order' }));
    await user.click(
      within(screen.getByRole('dialog', { name: 'Cancel this order?' })).getByRole('button', {
        name: 'Cancel Order',
      }),
    );
    expect(await screen.findByText('Order cancelled')).toBeInTheDocument();
    expect(fetchMock.callsTo('PUT', `${ORDERS_API}/${ID}/cancel`)).toHaveLength(1);
    expect(screen.getByText(`Cancelled at ${formatDate(CANCELLED_AT)}`)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Upload Receipt' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Cancel Order' })).not.toBeInTheDocument();
  });

  it("shows the server's refusal of a cancellation and keeps the order as it was", async () => {
    serve(unpaid, [wallet()], undefined, () =>
      json(409, { message: 'A paid order can only be cancelled by the shop' }),
    );
    renderOrder();
    const user = userEvent.setup();

    await user.click(await screen.findByRole('button', { name: 'Cancel Order' }));
    await user.click(
      within(screen.getByRole('dialog', { name: 'Cancel this order?' })).getByRole('button', {
        name: 'Cancel Order',
      }),
    );
    expect(await screen.findByText('A paid order can only be cancelled by the shop')).toBeInTheDocument();
    expect(screen.queryByText(/^Cancelled at/)).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Upload Receipt' })).toBeInTheDocument();
  });

  it('shows a cancelled order as cancelled, with no wallet and nothing to pay or cancel', async () => {
    const fetchMock = serve(cancelled);
    renderOrder();

    expect(await screen.findByText(`Cancelled at ${formatDate(CANCELLED_AT)}`)).toBeInTheDocument();
    expect(screen.getByText('Not paid')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Upload Receipt' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Cancel Order' })).not.toBeInTheDocument();
    expect(fetchMock.urls()).not.toContain(`${WALLET_API}/all-wallets`);
  });
});
