import { userInfoAtom } from '@shop/state';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SignUpPage } from '../signup-page';
import { renderScreen, stubApi } from '@shop/ui/testing';

const ann = { _id: 'u1', name: 'Ann', email: 'ann@example.com', isAdmin: false, token: 'tok' };

async function fillIn(password: string, confirm: string) {
  await userEvent.type(screen.getByLabelText('Name'), 'Ann');
  await userEvent.type(screen.getByLabelText('Email'), 'ann@example.com');
  await userEvent.type(screen.getByLabelText('Password'), password);
  await userEvent.type(screen.getByLabelText('Confirm Password'), confirm);
  await userEvent.click(screen.getByRole('button', { name: 'Sign Up' }));
}

describe('Sign Up screen', () => {
  beforeEach(() => localStorage.clear());
  afterEach(() => vi.unstubAllGlobals());

  it('signs the new user in and goes to the redirect target', async () => {
    const { calls } = stubApi({ '/api/users/signup': { status: 201, body: ann } });
    const { store } = renderScreen(<SignUpPage />, { path: '/signup', url: '/signup?redirect=/shipping' });

    await fillIn('correct-horse-battery', 'correct-horse-battery');

    expect(await screen.findByTestId('location')).toHaveTextContent('/shipping');
    expect(calls[0]).toMatchObject({
      url: '/api/users/signup',
      method: 'POST',
      body: { name: 'Ann', email: 'ann@example.com', password: 'correct-horse-battery' },
    });
    expect(store.get(userInfoAtom)).toEqual(ann);
  });

  it('refuses two different passwords without calling the server', async () => {
    const { calls } = stubApi({});
    renderScreen(<SignUpPage />, { path: '/signup' });
    await fillIn('correct-horse-battery', 'correct-horse-batterx');
    expect(await screen.findByText('Passwords do not match')).toBeInTheDocument();
    expect(calls).toEqual([]);
  });

  it("shows the server's refusal and stays", async () => {
    stubApi({ '/api/users/signup': { status: 409, body: { message: 'Email is already registered' } } });
    renderScreen(<SignUpPage />, { path: '/signup' });
    await fillIn('correct-horse-battery', 'correct-horse-battery');
    expect(await screen.findByText('Email is already registered')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Sign Up' })).toBeInTheDocument();
  });

  it('links to sign-in keeping the redirect, and sends a signed-in user on at once', async () => {
    stubApi({});
    renderScreen(<SignUpPage />, { path: '/signup', url: '/signup?redirect=/payment' });
    expect(screen.getByRole('link', { name: 'Sign In' })).toHaveAttribute(
      'href',
      '/signin?redirect=%2Fpayment',
    );
  });

  it('sends a user who is already signed in to the redirect target (default /)', async () => {
    stubApi({});
    localStorage.setItem('userInfo', JSON.stringify(ann));
    const { createStore } = await import('jotai');
    const store = createStore();
    store.set(userInfoAtom, ann);
    renderScreen(<SignUpPage />, { path: '/signup', store });
    expect(await screen.findByTestId('location')).toHaveTextContent(/^\/$/);
  });
});
