import { NEW_ORDER_STATE, type Order } from '@shop/contracts';
import { siteSettingsAtom, userInfoAtom } from '@shop/state';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createStore } from 'jotai';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { columnHeaders, listWithDeletion, page, renderScreen, stubApi } from '@shop/ui/testing';
import AllOrdersPage from '../all-orders-page';

const RECEIPT = '/api/media/0123456789abcdef01234567/receipt.png';

const order = (id: string, overrides: Partial<Order> = {}): Order => ({
  _id: id,
  user: 'u1',
  orderItems: [
    { _id: 'p1', name: 'Glock 19', quantity: 2, price: 1500, image: '' },
    { _id: 'p2', name: 'Holster', quantity: 1, price: 40, image: '' },
  ],
  shippingAddress: { fullName: 'Ann', address: '1 Main', city: 'Town', country: 'US', phoneNumber: '1' },
  paymentMethod: 'cashapp',
  itemsPrice: 3040,
  taxPrice: 30.4,
  discount: 0,
  shippingPrice: 0,
  totalPrice: 3070.4,
  ...NEW_ORDER_STATE,
  refunds: [],
  createdAt: '2026-01-01T10:00:00Z',
  updatedAt: '2026-01-01T10:00:00Z',
  ...overrides,
});

const pending = order('o-pending', { isPaid: true, status: 'Pending', paymentReceipt: RECEIPT });
const paid = order('o-paid', { isPaid: true, status: 'Paid', paymentReceipt: RECEIPT });
const delivered = order('o-done', { isPaid: true, status: 'Paid', isDelivered: true });
const unpaid = order('o-unpaid');
const cancelled = order('o-cancelled', {
  isPaid: true,
  status: 'Paid',
  isCancelled: true,
  cancelledAt: '2026-01-02T10:00:00Z',
});

function renderOrders(url = '/all-orders') {
  const store = createStore();
  store.set(siteSettingsAtom, { websiteName: 'Shop', currency: '$', logo: '' });
  store.set(userInfoAtom, {
    _id: 'a1',
    name: 'Admin',
    email: 'admin@shop.local',
    isAdmin: true,
    token: 'admin-token',
  });
  return renderScreen(<AllOrdersPage />, { path: '/all-orders', url, store });
}

const rowOf = (id: string) => screen.getByText(`Order ${id}`).closest('tr')!;

/** The files the screen hands the browser to save: each link's name and what its object URL held. */
function savedFiles() {
  const files: { name: string; text: Promise<string> }[] = [];
  const blobs = new Map<string, Blob>();
  vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
    const url = `blob:shop.test/${blobs.size}`;
    blobs.set(url, blob as Blob);
    return url;
  });
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    files.push({ name: this.download, text: blobs.get(this.href)!.text() });
  });
  return files;
}

describe('All Orders screen', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('exports the orders the search matches as the CSV file the server names, with the admin token', async () => {
    const csv = 'Order,Full name\r\no-unpaid,Ann\r\n';
    const api = stubApi({
      'GET /api/orders': page([unpaid]),
      'GET /api/orders/export': {
        text: csv,
        headers: {
          'Content-Type': 'text/csv',
          'Content-Disposition': 'attachment; filename="orders-2026-11-28.csv"',
        },
      },
    });
    const files = savedFiles();
    renderOrders('/all-orders?q=Ann');

    await userEvent.click(await screen.findByRole('button', { name: 'Export CSV' }));

    await waitFor(() => expect(files).toHaveLength(1));
    expect(files[0]!.name).toBe('orders-2026-11-28.csv');
    expect(await files[0]!.text).toBe(csv);
    const [call] = api.callsTo('GET', '/api/orders/export');
    expect(Object.fromEntries(call!.query)).toEqual({ q: 'Ann' });
    expect(new Headers(call!.init.headers).get('Authorization')).toBe('Bearer admin-token');
  });

  it("shows an export the server refused as an error toast with the server's message, saving nothing", async () => {
    stubApi({
      'GET /api/orders': page([unpaid]),
      'GET /api/orders/export': {
        status: 400,
        body: { message: 'q must be shorter than or equal to 100 characters' },
      },
    });
    const files = savedFiles();
    renderOrders();

    await userEvent.click(await screen.findByRole('button', { name: 'Export CSV' }));

    expect(await screen.findByText('q must be shorter than or equal to 100 characters')).toBeInTheDocument();
    expect(files).toEqual([]);
  });

  it('shows the spec columns, the items in a dropdown and Yes/No flags', async () => {
    const api = stubApi({ 'GET /api/orders': page([unpaid, pending]) });
    renderOrders();

    const table = await screen.findByRole('table');
    expect(columnHeaders(table)).toEqual([
      'ORDER ITEMS',
      'ITEMS PRICE',
      'TAX PRICE',
      'TOTAL PRICE',
      'PAID',
      'STATUS',
      'RECEIPT',
      'DELIVERED',
      'ACTIONS',
    ]);
    const row = within(rowOf('o-unpaid'));
    expect(row.getByText('3 items')).toBeInTheDocument();
    await userEvent.click(row.getByText('3 items'));
    expect(row.getByText('Glock 19, 2 x $1,500.00')).toBeVisible();
    expect(row.getByText('Holster, 1 x $40.00')).toBeVisible();
    expect(rowOf('o-unpaid')).toHaveTextContent('$3,040.00$30.40$3,070.40NoNot paidNo ReceiptNo');
    expect(rowOf('o-pending')).toHaveTextContent('YesPending');
    expect(Object.fromEntries(api.calls[0]!.query)).toEqual({ page: '1', limit: '10' });
  });

  it('opens the receipt thumbnail in the Payment Receipt dialog', async () => {
    stubApi({ 'GET /api/orders': page([pending]) });
    renderOrders();

    await userEvent.click(
      await screen.findByRole('button', { name: 'View the payment receipt of order o-pending' }),
    );

    const dialog = screen.getByRole('dialog', { name: 'Payment Receipt' });
    expect(within(dialog).getByRole('img', { name: 'Payment receipt' })).toHaveAttribute('src', RECEIPT);
  });

  it('offers Mark Paid until an order is Paid, Delivered once it is Paid, Cancel until delivered, Refund once Paid', async () => {
    stubApi({ 'GET /api/orders': page([unpaid, pending, paid, delivered, cancelled]) });
    renderOrders();
    await screen.findByRole('table');

    const buttons = (id: string) =>
      within(rowOf(id))
        .getAllByRole('button')
        .map((button) => button.textContent)
        .filter((text) => text !== '');
    expect(buttons('o-unpaid')).toEqual(['Mark Paid', 'Cancel', 'Delete']);
    expect(buttons('o-pending')).toEqual(['Mark Paid', 'Cancel', 'Delete']);
    expect(buttons('o-paid')).toEqual(['Delivered', 'Cancel', 'Refund', 'Delete']);
    expect(buttons('o-done')).toEqual(['Refund', 'Delete']);
    // Cancelled by the shop after its payment: the money can still go back.
    expect(buttons('o-cancelled')).toEqual(['Refund', 'Delete']);
    // A cancelled order keeps its payment status, and says it is cancelled beside it.
    expect(rowOf('o-cancelled')).toHaveTextContent('YesPaidCancelled');
  });

  it('cancels an order after confirmation, with its toast, and keeps one the admin keeps', async () => {
    let current = paid;
    const api = stubApi({
      'GET /api/orders': () => page([current]),
      'PUT /api/orders/o-paid/cancel': () => {
        current = { ...paid, isCancelled: true, cancelledAt: '2026-01-02T10:00:00Z' };
        return { body: current };
      },
    });
    renderOrders();

    await userEvent.click(await screen.findByRole('button', { name: 'Cancel order o-paid' }));
    const dialog = screen.getByRole('dialog', { name: 'Cancel order' });
    expect(dialog).toHaveTextContent('Cancel order o-paid? Its items go back in stock.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Keep Order' }));
    expect(api.callsTo('PUT', '/api/orders/o-paid/cancel')).toHaveLength(0);

    await userEvent.click(screen.getByRole('button', { name: 'Cancel order o-paid' }));
    await userEvent.click(
      within(screen.getByRole('dialog', { name: 'Cancel order' })).getByRole('button', {
        name: 'Cancel Order',
      }),
    );
    expect(await screen.findByText('Order cancelled')).toBeInTheDocument();
    expect(api.callsTo('PUT', '/api/orders/o-paid/cancel')).toHaveLength(1);
    await waitFor(() => expect(rowOf('o-paid')).toHaveTextContent('Cancelled'));
    expect(within(rowOf('o-paid')).queryByRole('button', { name: /^Cancel order/ })).toBeNull();
  });

  it('records a refund from the dialog in cents, keeps a refusal in it, and shows what went back', async () => {
    let current = paid;
    let answers = 0;
    const api = stubApi({
      'GET /api/orders': () => page([current]),
      'POST /api/orders/o-paid/refunds': () => {
        answers += 1;
        if (answers === 1)
          return {
            status: 409,
            body: { message: 'A refund with this reference is already recorded on this order' },
          };
        current = { ...paid, refundedCents: 10_025 };
        return { status: 201, body: current };
      },
    });
    renderOrders();

    await userEvent.click(await screen.findByRole('button', { name: 'Refund order o-paid' }));
    const dialog = screen.getByRole('dialog', { name: 'Refund order' });
    expect(dialog).toHaveTextContent('$3,070.40 of $3,070.40 left to refund');
    const amount = within(dialog).getByLabelText('Amount');
    expect(amount).toHaveValue(3070.4);
    await userEvent.clear(amount);
    await userEvent.type(amount, '100.25');
    await userEvent.type(within(dialog).getByLabelText('Payment reference'), 'TX-77');
    await userEvent.type(within(dialog).getByLabelText('Reason'), 'Scratched slide');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Record Refund' }));

    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'A refund with this reference is already recorded on this order',
    );
    expect(within(dialog).getByLabelText('Payment reference')).toHaveValue('TX-77');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Record Refund' }));

    expect(await screen.findByText('Refund recorded')).toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: 'Refund order' })).toBeNull();
    expect(api.callsTo('POST', '/api/orders/o-paid/refunds').map((call) => call.body)).toEqual([
      { amountCents: 10_025, reference: 'TX-77', reason: 'Scratched slide' },
      { amountCents: 10_025, reference: 'TX-77', reason: 'Scratched slide' },
    ]);
    await waitFor(() => expect(rowOf('o-paid')).toHaveTextContent('PaidRefunded $100.25'));
  });

  it('marks paid, then delivered, with their toasts, refreshing the row in place', async () => {
    let current = pending;
    const api = stubApi({
      'GET /api/orders': () => page([current]),
      'PUT /api/orders/markpaid/o-pending': () => {
        current = { ...pending, status: 'Paid' };
        return { body: current };
      },
      'PUT /api/orders/delivered/o-pending': () => {
        current = { ...current, isDelivered: true };
        return { body: current };
      },
    });
    renderOrders();

    await userEvent.click(await screen.findByRole('button', { name: 'Mark Paid order o-pending' }));
    expect(await screen.findByText('Order marked as paid successfully!')).toBeInTheDocument();
    await userEvent.click(await screen.findByRole('button', { name: 'Delivered order o-pending' }));
    expect(await screen.findByText('Order marked as delivered!')).toBeInTheDocument();

    await waitFor(() => expect(rowOf('o-pending')).toHaveTextContent('YesPaid'));
    await waitFor(() =>
      expect(within(rowOf('o-pending')).queryByRole('button', { name: /Delivered/ })).toBeNull(),
    );
    expect(api.callsTo('GET', '/api/orders')).toHaveLength(3);
  });

  it('deletes an order after confirmation and shows a refusal as an error toast', async () => {
    stubApi({
      ...listWithDeletion({
        list: 'GET /api/orders',
        rows: [unpaid, paid],
        deletion: 'DELETE /api/orders/delete/o-unpaid',
        row: unpaid,
        deleted: { body: { _id: 'o-unpaid', message: 'Order deleted', stockReturned: true } },
      }),
      'PUT /api/orders/delivered/o-paid': { status: 409, body: { message: 'Order is already delivered' } },
    });
    renderOrders();

    await userEvent.click(await screen.findByRole('button', { name: 'Delete order o-unpaid' }));
    expect(screen.getByRole('dialog', { name: 'Delete order' })).toHaveTextContent(
      'Its items go back in stock.',
    );
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Order Deleted successfully!')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('Order o-unpaid')).toBeNull());

    await userEvent.click(screen.getByRole('button', { name: 'Delivered order o-paid' }));
    expect(await screen.findByText('Order is already delivered')).toBeInTheDocument();
  });

  it('searches with q and pages with page and limit', async () => {
    const api = stubApi({ 'GET /api/orders': page([paid], 25) });
    renderOrders('/all-orders?q=glock&page=3');

    expect(await screen.findByText('Page 3 of 3 (25 orders)')).toBeInTheDocument();
    expect(Object.fromEntries(api.calls[0]!.query)).toEqual({ q: 'glock', page: '3', limit: '10' });
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
  });

  it('shows the red alert when the list fails', async () => {
    stubApi({ 'GET /api/orders': { status: 500, body: { message: 'Orders are unavailable' } } });
    renderOrders();

    expect(await screen.findByRole('alert')).toHaveTextContent('Orders are unavailable');
  });
});
