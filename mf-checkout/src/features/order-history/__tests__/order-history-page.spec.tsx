import type { Order } from '@shop/contracts';
import { formatDate, siteSettingsAtom } from '@shop/state';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createStore } from 'jotai';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { columnHeaders, json, renderScreen, stubApi } from '@shop/ui/testing';
import OrderHistoryPage from '../order-history-page';

const order = (n: number, overrides: Partial<Order> = {}): Order =>
  ({
    _id: `64b0000000000000000000${String(n).padStart(2, '0')}`,
    totalPrice: 1091.98,
    isPaid: false,
    paidAt: null,
    isDelivered: false,
    deliveredAt: null,
    createdAt: '2026-03-01T10:00:00.000Z',
    ...overrides,
  }) as Order;

function renderHistory(url = '/orderhistory') {
  const store = createStore();
  store.set(siteSettingsAtom, { websiteName: 'Shop', currency: '$', logo: '' });
  renderScreen(<OrderHistoryPage />, { url, path: '/orderhistory', store });
}

describe('Order History screen', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('lists the orders with ID, DATE, TOTAL, PAID, DELIVERED and a Details button to the order', async () => {
    const paid = order(2, { isPaid: true, paidAt: '2026-03-02T15:30:00.000Z' });
    const cancelled = order(0, {
      isPaid: true,
      paidAt: '2026-03-02T16:00:00.000Z',
      status: 'Paid',
      isCancelled: true,
      cancelledAt: '2026-03-03T09:00:00.000Z',
      refundedCents: 109_198,
    });
    const fetchMock = stubApi(() => json(200, [paid, order(1), cancelled], { 'X-Total-Count': '3' }));
    renderHistory();
    expect(screen.getByRole('status')).toHaveTextContent('Loading...');

    const table = await screen.findByRole('table');
    expect(fetchMock.mock.calls[0]![0]).toBe('/api/orders/mine?page=1&limit=10');
    expect(columnHeaders(table)).toEqual(['ID', 'DATE', 'TOTAL', 'PAID', 'DELIVERED', 'ACTIONS']);
    const [first, second, third] = within(table).getAllByRole('row').slice(1);
    expect(
      within(first!)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual([paid._id, formatDate(paid.createdAt), '$1,091.98', formatDate(paid.paidAt), 'No', 'Details']);
    expect(within(second!).getAllByRole('cell')[3]).toHaveTextContent('No');
    // What the shop gave back is said beside the payment.
    expect(within(third!).getAllByRole('cell')[3]).toHaveTextContent(
      `${formatDate(cancelled.paidAt)}, refunded $1,091.98`,
    );
    // A cancelled order says so where its delivery would be.
    expect(within(third!).getAllByRole('cell')[4]).toHaveTextContent(
      `Cancelled ${formatDate(cancelled.cancelledAt)}`,
    );
    expect(screen.queryByRole('navigation', { name: 'Order history pages' })).not.toBeInTheDocument();

    await userEvent.click(within(first!).getByRole('button', { name: `Details of order ${paid._id}` }));
    expect(screen.getByTestId('location')).toHaveTextContent(`/order/${paid._id}`);
  });

  it('pages through the orders with the total from X-Total-Count', async () => {
    const fetchMock = stubApi(({ url }) =>
      json(200, url.includes('page=2') ? [order(11)] : [order(1)], { 'X-Total-Count': '21' }),
    );
    renderHistory();

    const pages = await screen.findByRole('navigation', { name: 'Order history pages' });
    expect(pages).toHaveTextContent('Page 1 of 3');
    expect(within(pages).queryByRole('link', { name: 'Previous' })).not.toBeInTheDocument();
    await userEvent.click(within(pages).getByRole('link', { name: 'Next' }));

    expect(await screen.findByText(order(11)._id)).toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: 'Order history pages' })).toHaveTextContent('Page 2 of 3');
    expect(fetchMock.mock.calls.map(([url]) => url)).toContain('/api/orders/mine?page=2&limit=10');
  });

  it('says there are no orders yet', async () => {
    stubApi(() => json(200, [], { 'X-Total-Count': '0' }));
    renderHistory();
    expect(await screen.findByText(/No orders yet\./)).toBeInTheDocument();
  });

  it("shows a red alert with the server's message when the list fails", async () => {
    stubApi(() => json(503, { message: 'Service temporarily unavailable, please try again' }));
    renderHistory();
    expect(await screen.findByRole('alert')).toHaveTextContent('Service temporarily unavailable');
  });
});
