import { userInfoAtom, type UserInfo } from '@shop/state';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createStore } from 'jotai';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderScreen, stubApi } from '@shop/ui/testing';
import { ProfilePage } from '../profile-page';

const ann: UserInfo = { _id: 'u1', name: 'Ann', email: 'ann@example.com', isAdmin: false, token: 'old' };

function renderProfile(user: UserInfo) {
  const store = createStore();
  store.set(userInfoAtom, user);
  renderScreen(<ProfilePage />, { path: '/profile', store });
  return store;
}

describe('User Profile screen', () => {
  beforeEach(() => localStorage.clear());
  afterEach(() => vi.unstubAllGlobals());

  it('changes the name without asking for the current password, keeping the password', async () => {
    const { calls } = stubApi({
      '/api/users/profile': { status: 200, body: { ...ann, name: 'Ann Lee', token: 'new' } },
    });
    const store = renderProfile(ann);
    expect(screen.getByLabelText('Name')).toHaveValue('Ann');
    expect(screen.queryByLabelText('Current Password')).not.toBeInTheDocument();

    await userEvent.clear(screen.getByLabelText('Name'));
    await userEvent.type(screen.getByLabelText('Name'), 'Ann Lee');
    await userEvent.click(screen.getByRole('button', { name: 'Update' }));

    expect(await screen.findByText('User updated successfully')).toBeInTheDocument();
    expect(calls[0]).toMatchObject({
      url: '/api/users/profile',
      method: 'PUT',
      body: { name: 'Ann Lee', email: 'ann@example.com', password: '' },
    });
    expect(calls[0]?.body).not.toHaveProperty('currentPassword');
    expect(store.get(userInfoAtom)).toMatchObject({ name: 'Ann Lee', token: 'new' });
  });

  it('asks for the current password to change the password, and stores the fresh token', async () => {
    const { calls } = stubApi({ '/api/users/profile': { status: 200, body: { ...ann, token: 'fresh' } } });
    const store = renderProfile(ann);
    await userEvent.type(screen.getByLabelText('Password'), 'brand-new-secret');
    await userEvent.type(screen.getByLabelText('Confirm Password'), 'brand-new-secret');
    await userEvent.type(screen.getByLabelText('Current Password'), 'old-secret-123');
    await userEvent.click(screen.getByRole('button', { name: 'Update' }));

    expect(await screen.findByText('User updated successfully')).toBeInTheDocument();
    expect(calls[0]?.body).toEqual({
      name: 'Ann',
      email: 'ann@example.com',
      password: 'brand-new-secret',
      currentPassword: 'old-secret-123',
    });
    expect(store.get(userInfoAtom)?.token).toBe('fresh');
    expect(screen.getByLabelText('Password')).toHaveValue('');
  });

  it('asks for the current password when the e-mail changes', async () => {
    stubApi({});
    renderProfile(ann);
    await userEvent.clear(screen.getByLabelText('Email'));
    await userEvent.type(screen.getByLabelText('Email'), 'ann.lee@example.com');
    expect(screen.getByLabelText('Current Password')).toBeRequired();
  });

  it("refuses different passwords, and shows the server's refusal", async () => {
    const { calls } = stubApi({
      '/api/users/profile': { status: 400, body: { message: 'Current password is incorrect' } },
    });
    renderProfile(ann);
    await userEvent.type(screen.getByLabelText('Password'), 'brand-new-secret');
    await userEvent.type(screen.getByLabelText('Confirm Password'), 'brand-new-secreT');
    await userEvent.type(screen.getByLabelText('Current Password'), 'wrong');
    await userEvent.click(screen.getByRole('button', { name: 'Update' }));
    expect(await screen.findByText('Passwords do not match')).toBeInTheDocument();
    expect(calls).toEqual([]);

    await userEvent.clear(screen.getByLabelText('Confirm Password'));
    await userEvent.type(screen.getByLabelText('Confirm Password'), 'brand-new-secret');
    await userEvent.click(screen.getByRole('button', { name: 'Update' }));
    expect(await screen.findByText('Current password is incorrect')).toBeInTheDocument();
  });

  it('shows admins the ADMIN FEATURES menu with the six admin screens, and customers no such menu', async () => {
    stubApi({});
    renderProfile({ ...ann, isAdmin: true });
    await userEvent.click(screen.getByRole('button', { name: /ADMIN FEATURES/ }));
    const menu = await screen.findByRole('menu');
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((item) => [item.textContent, item.getAttribute('href')]),
    ).toEqual([
      ['Add Product', '/create-listing'],
      ['View All Users', '/all-users'],
      ['View All Orders', '/all-orders'],
      ['View All Products', '/all-products'],
      ['Wallet Update', '/wallet-update'],
      ['Website Update', '/website-update'],
      ['Audit Trail', '/audit-trail'],
      ['Fault Flags', '/fault-flags'],
    ]);
  });

  it('has no admin menu for a customer', () => {
    stubApi({});
    renderProfile(ann);
    expect(screen.queryByRole('button', { name: /ADMIN FEATURES/ })).not.toBeInTheDocument();
  });
});
