import { cartItemsAtom, siteSettingsAtom, userInfoAtom } from '@shop/state';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider, createStore } from 'jotai';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubApi } from '@shop/ui/testing';
import { Layout } from '../layout';
import { searchUrl } from '../search-box';

function Where() {
  const location = useLocation();
  return <p data-testid="location">{location.pathname + location.search}</p>;
}

function renderLayout(store = createStore()) {
  render(
    <Provider store={store}>
      <MemoryRouter initialEntries={['/']}>
        <Layout>
          <Routes>
            <Route path="*" element={<Where />} />
          </Routes>
        </Layout>
      </MemoryRouter>
    </Provider>,
  );
  return store;
}

describe('shared layout', () => {
  beforeEach(() => localStorage.clear());
  afterEach(() => vi.unstubAllGlobals());

  it('loads the site name from the first settings record', async () => {
    stubApi({
      '/api/data/all-data': {
        status: 200,
        body: [{ _id: 's1', siteName: 'Glock Store', currency: '€', logo: '' }],
      },
    });
    const store = renderLayout();

    expect(await screen.findByRole('link', { name: 'Glock Store' })).toHaveAttribute('href', '/');
    expect(screen.getByRole('searchbox', { name: 'Search Glock Store' })).toHaveAttribute(
      'placeholder',
      'Search Glock Store',
    );
    expect(store.get(siteSettingsAtom).currency).toBe('€');
  });

  it('shows an error toast when the site data cannot be loaded', async () => {
    stubApi({ '/api/data/all-data': { status: 503, body: { message: 'Data service unavailable' } } });
    renderLayout();
    expect(await screen.findByText('Data service unavailable')).toBeInTheDocument();
  });

  it('searches with /search?query=… and with plain /search when empty', async () => {
    stubApi({});
    renderLayout();
    await userEvent.type(screen.getByRole('searchbox'), 'glock 19{Enter}');
    expect(screen.getByTestId('location')).toHaveTextContent('/search?query=glock%2019');
    expect(searchUrl('   ')).toBe('/search');
  });

  it('shows the total quantity of the cart on the cart link', () => {
    stubApi({});
    const store = createStore();
    store.set(cartItemsAtom, [
      { _id: 'a', name: 'A', slug: 'a', image: '', price: 1, countInStock: 5, quantity: 2 },
      { _id: 'b', name: 'B', slug: 'b', image: '', price: 1, countInStock: 5, quantity: 3 },
    ]);
    renderLayout(store);
    expect(screen.getByTestId('cart-badge')).toHaveTextContent('5');
    expect(screen.getByRole('link', { name: 'Cart 5 items' })).toHaveAttribute('href', '/cart');
  });

  it('offers Sign In to visitors and the account links to a signed-in user, who can sign out', async () => {
    stubApi({});
    const store = createStore();
    renderLayout(store);
    await userEvent.click(screen.getByRole('button', { name: /Hello, sign in/ }));
    const visitorMenu = await screen.findByRole('menu');
    expect(within(visitorMenu).getByRole('menuitem', { name: 'Sign In' })).toHaveAttribute('href', '/signin');
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    // The menu's code arrived with the click: the real trigger stands where the first button was, focused.
    expect(screen.getByRole('button', { name: /Hello, sign in/ })).toHaveFocus();

    store.set(userInfoAtom, { _id: 'u1', name: 'Ann', email: 'ann@x.io', isAdmin: false, token: 't' });
    await userEvent.click(await screen.findByRole('button', { name: /Hello, Ann/ }));
    const menu = await screen.findByRole('menu');
    expect(within(menu).getByRole('menuitem', { name: 'User Profile' })).toHaveAttribute('href', '/profile');
    expect(within(menu).getByRole('menuitem', { name: 'Order History' })).toHaveAttribute(
      'href',
      '/orderhistory',
    );

    await userEvent.click(within(menu).getByRole('menuitem', { name: 'Sign Out' }));
    expect(store.get(userInfoAtom)).toBeNull();
    expect(screen.getByTestId('location')).toHaveTextContent('/signin');
  });

  it('opens the side menu with the categories and closes it when one is chosen', async () => {
    stubApi({ '/api/products/categories': { status: 200, body: ['Accessories', 'Pistols'] } });
    renderLayout();
    await userEvent.click(screen.getByRole('button', { name: /All/ }));

    const menu = await screen.findByRole('dialog', { name: 'Hello, sign in' });
    await userEvent.click(await within(menu).findByRole('link', { name: 'Pistols' }));

    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/category/Pistols');
  });

  it('shows a red alert in the side menu when the categories fail', async () => {
    stubApi({ '/api/products/categories': { status: 500, body: { message: 'Categories unavailable' } } });
    renderLayout();
    await userEvent.click(screen.getByRole('button', { name: /All/ }));
    const menu = await screen.findByRole('dialog');
    expect(await within(menu).findByRole('alert')).toHaveTextContent('Categories unavailable');
  });

  it('has the footer links of the spec and the contact details of the configuration', async () => {
    stubApi({
      '/site.json': {
        status: 200,
        body: { contact: { location: 'California, United States', email: 'help@shop.test' } },
      },
    });
    renderLayout();
    const footer = screen.getByRole('contentinfo');
    for (const [label, href] of [
      ['About Us', '/about#about'],
      ['FAQ', '/about#faq'],
      ['Review', '/about#testimonials'],
      ['Services', '/about#services'],
      ['Terms and Condition', '/legal'],
    ] as const) {
      expect(within(footer).getByRole('link', { name: label })).toHaveAttribute('href', href);
    }
    expect(await within(footer).findByText('California, United States')).toBeInTheDocument();
    expect(within(footer).getByRole('link', { name: 'help@shop.test' })).toHaveAttribute(
      'href',
      'mailto:help@shop.test',
    );
  });

  it('offers a skip link to the main content as the first stop of the keyboard', async () => {
    stubApi({});
    renderLayout();
    await userEvent.tab();
    const skip = screen.getByRole('link', { name: 'Skip to main content' });
    expect(skip).toHaveFocus();
    expect(skip).toHaveAttribute('href', '#main');
    expect(screen.getByRole('main')).toHaveAttribute('id', 'main');
  });

  it('toggles the theme on the body and saves it', async () => {
    stubApi({});
    renderLayout();
    const before = document.body.dataset['theme'];
    await userEvent.click(screen.getByRole('button', { name: /Switch to (dark|light) mode/ }));
    const after = document.body.dataset['theme'];
    expect(after).not.toBe(before);
    expect(localStorage.getItem('mode')).toBe(JSON.stringify(after));
  });
});
