import { userInfoAtom } from '@shop/state';
import { render, screen } from '@testing-library/react';
import { Provider, createStore } from 'jotai';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import AdminHome from '../admin-home';

describe('Admin screens placeholder', () => {
  it('names the admin screen of the current route and the signed-in admin', () => {
    const store = createStore();
    store.set(userInfoAtom, { _id: 'u1', name: 'Ada', email: 'ada@x.io', isAdmin: true, token: 't' });
    render(
      <Provider store={store}>
        <MemoryRouter initialEntries={['/update/p1']}>
          <AdminHome />
        </MemoryRouter>
      </Provider>,
    );
    expect(screen.getByRole('heading', { name: 'Update Product' })).toBeInTheDocument();
    expect(screen.getByText(/Signed in as Ada/)).toBeInTheDocument();
  });
});
