import type { UserSummary } from '@shop/contracts';
import { userInfoAtom } from '@shop/state';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createStore } from 'jotai';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { columnHeaders, listWithDeletion, page, renderScreen, stubApi } from '@shop/ui/testing';
import AllUsersPage from '../all-users-page';

const me: UserSummary = { _id: 'u-me', name: 'Ada Admin', email: 'ada@shop.local', isAdmin: true };
const bob: UserSummary = { _id: 'u-bob', name: 'Bob', email: 'bob@example.com', isAdmin: false };
const cy: UserSummary = { _id: 'u-cy', name: 'Cy', email: 'cy@example.com', isAdmin: true };

function renderUsers(url = '/all-users') {
  const store = createStore();
  store.set(userInfoAtom, { ...me, token: 'tok' });
  return renderScreen(<AllUsersPage />, { path: '/all-users', url, store });
}

const rowOf = (name: string) => screen.getByRole('rowheader', { name }).closest('tr')!;

describe('All Users screen', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('lists NAME, EMAIL, ADMIN and ACTIONS, offers Make Admin to non-admins only and never Delete for oneself', async () => {
    const api = stubApi({ 'GET /api/users/all-users': page([me, bob, cy]) });
    renderUsers();

    const table = await screen.findByRole('table');
    expect(columnHeaders(table)).toEqual(['NAME', 'EMAIL', 'ADMIN', 'ACTIONS']);
    expect(rowOf('Bob')).toHaveTextContent('bob@example.comNo');
    expect(
      within(rowOf('Bob')).getByRole('button', { name: 'Make Admin bob@example.com' }),
    ).toBeInTheDocument();
    expect(within(rowOf('Cy')).queryByRole('button', { name: /Make Admin/ })).toBeNull();
    expect(within(rowOf('Ada Admin')).queryByRole('button')).toBeNull();
    expect(within(rowOf('Cy')).getByRole('button', { name: 'Delete cy@example.com' })).toBeInTheDocument();
    expect(Object.fromEntries(api.calls[0]!.query)).toEqual({ page: '1', limit: '10' });
  });

  it('makes a user an admin with the toast, says it takes effect at their next sign-in, and refreshes', async () => {
    let promoted = false;
    const api = stubApi({
      'GET /api/users/all-users': () => page([me, { ...bob, isAdmin: promoted }]),
      'PUT /api/users/markadmin/u-bob': () => {
        promoted = true;
        return { body: { ...bob, isAdmin: true } };
      },
    });
    renderUsers();

    const makeAdmin = await screen.findByRole('button', { name: 'Make Admin bob@example.com' });
    expect(makeAdmin).toHaveAccessibleDescription("Make Admin takes effect at the user's next sign-in.");
    await userEvent.click(makeAdmin);

    expect(await screen.findByText('User made an admin successfully!')).toBeInTheDocument();
    await waitFor(() => expect(rowOf('Bob')).toHaveTextContent('bob@example.comYes'));
    expect(api.callsTo('PUT', '/api/users/markadmin/u-bob')).toHaveLength(1);
  });

  it('deletes a user after confirmation and refreshes the list in place', async () => {
    stubApi(
      listWithDeletion({
        list: 'GET /api/users/all-users',
        rows: [me, bob],
        deletion: 'DELETE /api/users/delete/u-bob',
        row: bob,
        deleted: { body: { message: 'User deleted' } },
      }),
    );
    renderUsers();

    await userEvent.click(await screen.findByRole('button', { name: 'Delete bob@example.com' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete user' });
    expect(dialog).toHaveTextContent('Bob (bob@example.com)');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));

    expect(await screen.findByText('User deleted successfully!')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('rowheader', { name: 'Bob' })).toBeNull());
  });

  it('searches names and e-mails on the server and pages through the matches', async () => {
    const api = stubApi({
      'GET /api/users/all-users': (call) => page(call.query.get('page') === '2' ? [cy] : [bob], 12),
    });
    renderUsers();

    await userEvent.type(await screen.findByRole('searchbox', { name: 'Search users' }), 'example{Enter}');
    await waitFor(() => expect(api.calls.at(-1)?.query.get('q')).toBe('example'));
    await userEvent.click(await screen.findByRole('button', { name: 'Next' }));

    expect(await screen.findByText('Page 2 of 2 (12 users)')).toBeInTheDocument();
    expect(await screen.findByRole('rowheader', { name: 'Cy' })).toBeInTheDocument();
    expect(Object.fromEntries(api.calls.at(-1)!.query)).toEqual({ q: 'example', page: '2', limit: '10' });
  });

  it('says when no user matches and shows the red alert when the list fails', async () => {
    stubApi({ 'GET /api/users/all-users': page([]) });
    const view = renderUsers('/all-users?q=nobody');
    expect(await screen.findByText('No users match “nobody”.')).toBeInTheDocument();
    view.unmount();

    stubApi({ 'GET /api/users/all-users': { status: 403, body: { message: 'Admin access required' } } });
    renderUsers();
    expect(await screen.findByRole('alert')).toHaveTextContent('Admin access required');
  });
});
