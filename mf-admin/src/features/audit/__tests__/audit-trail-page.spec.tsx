import type { AuditEntry, UserSummary } from '@shop/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { columnHeaders, page, renderScreen, stubApi } from '@shop/ui/testing';
import AuditTrailPage from '../audit-trail-page';

const ada: UserSummary = { _id: 'a'.repeat(24), name: 'Ada', email: 'ada@shop.local', isAdmin: true };
const gone = 'f'.repeat(24);

const entry = (n: number, overrides: Partial<AuditEntry> = {}): AuditEntry => ({
  _id: `event-${n}`,
  actorId: ada._id,
  action: 'product.updated',
  target: { type: 'product', id: `p${n}`, label: `Product ${n}` },
  before: { price: 100 },
  after: { price: 120 },
  at: '2026-11-29T08:00:00.000Z',
  ...overrides,
});

function renderTrail(url = '/audit-trail') {
  return renderScreen(<AuditTrailPage />, { path: '/audit-trail', url });
}

const auditQueries = (api: ReturnType<typeof stubApi>) =>
  api.calls.filter((call) => call.path === '/api/data/audit').map((call) => Object.fromEntries(call.query));

describe('Audit Trail screen', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('lists when, which admin, what and on which record, with each changed field before and after', async () => {
    stubApi({
      'GET /api/data/audit': page(
        [
          entry(1),
          entry(2, {
            actorId: gone,
            action: 'product.deleted',
            before: { name: 'Product 2', countInStock: 3 },
            after: null,
          }),
          entry(3, {
            action: 'order.refunded',
            target: { type: 'order', id: 'o3', label: 'Order o3' },
            before: { refundedCents: 0 },
            after: { refundedCents: 500, refund: { amountCents: 500, reference: 'A-1' } },
          }),
        ],
        23,
      ),
      'GET /api/users/all-users': page([ada]),
    });
    renderTrail();

    const table = await screen.findByRole('table');
    expect(columnHeaders(table)).toEqual(['WHEN', 'ADMIN', 'ACTION', 'RECORD', 'CHANGES']);
    const rows = within(table).getAllByRole('row').slice(1);
    await waitFor(() => expect(rows[0]).toHaveTextContent('ada@shop.local'));
    expect(rows[0]).toHaveTextContent(/November 29, 2026.*Product updated.*Product 1.*p1.*price: 100 → 120/);
    // An admin no longer listed shows as their id; a deletion lists what was deleted.
    expect(rows[1]).toHaveTextContent(`${gone}Product deleted`);
    expect(rows[1]).toHaveTextContent('name: Product 2countInStock: 3');
    expect(rows[2]).toHaveTextContent('refund: — → {"amountCents":500,"reference":"A-1"}');
    expect(screen.getByText(/23 entries/)).toBeInTheDocument();
  });

  it('asks the server for one page of what the filters, the search and the page say, and keeps them in the URL', async () => {
    const api = stubApi({
      'GET /api/data/audit': page([entry(1)], 30),
      'GET /api/users/all-users': page([ada]),
    });
    renderTrail('/audit-trail?page=2');
    await screen.findByRole('table');
    expect(auditQueries(api).at(-1)).toEqual({ page: '2', limit: '10' });

    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Action' }), 'Stock changed');
    await waitFor(() =>
      expect(auditQueries(api).at(-1)).toEqual({ action: 'product.stock-changed', page: '1', limit: '10' }),
    );
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Record' }), 'Products');
    await userEvent.type(screen.getByRole('searchbox'), 'p1{Enter}');
    await waitFor(() =>
      expect(auditQueries(api).at(-1)).toEqual({
        action: 'product.stock-changed',
        targetType: 'product',
        targetId: 'p1',
        page: '1',
        limit: '10',
      }),
    );
    expect(screen.getByTestId('location')).toHaveTextContent(
      '/audit-trail?action=product.stock-changed&targetType=product&q=p1',
    );
  });

  it("shows one admin's actions from their address, and all again from the filter's button", async () => {
    const api = stubApi({
      'GET /api/data/audit': page([entry(1)]),
      'GET /api/users/all-users': page([ada]),
    });
    renderTrail();
    await userEvent.click(await screen.findByRole('button', { name: 'Only the actions of ada@shop.local' }));
    await waitFor(() => expect(auditQueries(api).at(-1)).toMatchObject({ actorId: ada._id }));
    await userEvent.click(screen.getByRole('button', { name: /Only ada@shop.local.*show every admin/ }));
    await waitFor(() => expect(auditQueries(api).at(-1)).toEqual({ page: '1', limit: '10' }));
  });
});
