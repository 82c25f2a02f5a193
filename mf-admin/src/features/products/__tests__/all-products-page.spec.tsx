import type { Product } from '@shop/contracts';
import { siteSettingsAtom } from '@shop/state';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createStore } from 'jotai';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  columnHeaders,
  listWithDeletion,
  page,
  renderScreen,
  stubApi,
  type StubCall,
} from '@shop/ui/testing';
import AllProductsPage from '../all-products-page';

const product = (n: number, overrides: Partial<Product> = {}): Product => ({
  _id: `64b7f00000000000000000${String(n).padStart(2, '0')}`,
  name: `Product ${n}`,
  slug: `product-${n}`,
  image: [],
  category: 'Pistols',
  brand: 'Glock',
  price: 1000 + n,
  countInStock: n,
  description: '',
  rating: 0,
  numReviews: 0,
  lowStockThreshold: null,
  lowStock: false,
  ...overrides,
});

function renderProducts(url = '/all-products') {
  const store = createStore();
  store.set(siteSettingsAtom, { websiteName: 'Shop', currency: '€', logo: '' });
  return renderScreen(<AllProductsPage />, { path: '/all-products', url, store });
}

const rows = () => within(screen.getByRole('table')).getAllByRole('row').slice(1);

describe('All Products screen', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('lists a page of products with the spec columns, prices in the site currency, and edit links', async () => {
    const api = stubApi({ 'GET /api/products': page([product(1), product(2)], 2) });
    renderProducts();

    expect(screen.getByRole('status')).toHaveTextContent('Loading...');
    await screen.findByRole('table');
    expect(columnHeaders(screen.getByRole('table'))).toEqual([
      'NAME',
      'BRAND',
      'CATEGORY',
      'PRICE',
      'COUNT IN STOCK',
      'ACTIONS',
    ]);
    expect(rows()[0]).toHaveTextContent('Product 1GlockPistols€1,001.001');
    expect(screen.getByRole('link', { name: 'Edit Product 2' })).toHaveAttribute(
      'href',
      `/update/${product(2)._id}`,
    );
    expect(Object.fromEntries(api.calls[0]!.query)).toEqual({ sort: 'newest', page: '1', pageSize: '10' });
  });

  it('filters to the products low on stock, keeping the filter while searching, and marks them', async () => {
    const api = stubApi({
      'GET /api/products': (call: StubCall) =>
        call.query.get('lowStock') === 'true'
          ? page([product(2, { lowStock: true })], 1)
          : page([product(1), product(2, { lowStock: true })], 2),
    });
    renderProducts();

    await screen.findByRole('table');
    expect(rows().map((row) => within(row).getAllByRole('cell')[3]!.textContent)).toEqual([
      '1',
      '2Low stock',
    ]);
    await userEvent.click(screen.getByRole('checkbox', { name: 'Low stock only' }));
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(api.calls.at(-1)!.query.get('lowStock')).toBe('true');
    expect(screen.getByTestId('location')).toHaveTextContent('/all-products?lowStock=true');

    await userEvent.type(screen.getByRole('searchbox', { name: 'Search products' }), 'glock');
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(api.calls.at(-1)?.query.get('query')).toBe('glock'));
    expect(api.calls.at(-1)!.query.get('lowStock')).toBe('true');
    expect(screen.getByRole('checkbox', { name: 'Low stock only' })).toBeChecked();

    await userEvent.click(screen.getByRole('checkbox', { name: 'Low stock only' }));
    await waitFor(() => expect(api.calls.at(-1)!.query.get('lowStock')).toBeNull());
  });

  it('searches and pages on the server with the catalogue’s own parameters', async () => {
    const api = stubApi({
      'GET /api/products': (call: StubCall) =>
        call.query.get('page') === '2'
          ? page([product(11)], 11)
          : page(
              [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((n) => product(n)),
              11,
            ),
    });
    renderProducts();

    await userEvent.type(await screen.findByRole('searchbox', { name: 'Search products' }), 'glock');
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(api.calls.at(-1)?.query.get('query')).toBe('glock'));
    expect(await screen.findByText('Page 1 of 2 (11 products)')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled();

    await userEvent.click(screen.getByRole('button', { name: 'Next' }));

    expect(await screen.findByText('Page 2 of 2 (11 products)')).toBeInTheDocument();
    expect(rows()).toHaveLength(1);
    expect(Object.fromEntries(api.calls.at(-1)!.query)).toMatchObject({
      query: 'glock',
      page: '2',
      pageSize: '10',
    });
    expect(screen.getByTestId('location')).toHaveTextContent('/all-products?q=glock&page=2');
  });

  it('deletes only after confirmation, toasts, and refreshes the list in place', async () => {
    const deleting = product(1);
    const api = stubApi(
      listWithDeletion({
        list: 'GET /api/products',
        rows: [deleting, product(2)],
        deletion: `DELETE /api/products/delete/${deleting._id}`,
        row: deleting,
        deleted: { body: { message: 'Product deleted' } },
      }),
    );
    renderProducts();

    await userEvent.click(await screen.findByRole('button', { name: 'Delete Product 1' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete product' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(api.callsTo('DELETE', `/api/products/delete/${product(1)._id}`)).toEqual([]);

    await userEvent.click(screen.getByRole('button', { name: 'Delete Product 1' }));
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete' }));

    expect(await screen.findByText('Product Deleted successfully!')).toBeInTheDocument();
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(screen.queryByText('Product 1')).not.toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/all-products');
  });

  it('shows the red alert with the server’s message when the list fails', async () => {
    stubApi({ 'GET /api/products': { status: 503, body: { message: 'Catalogue is unavailable' } } });
    renderProducts();

    expect(await screen.findByRole('alert')).toHaveTextContent('Catalogue is unavailable');
  });

  it('reads the search and page from the URL, and goes back a page when its last row is deleted', async () => {
    let emptied = false;
    const api = stubApi({
      'GET /api/products': (call: StubCall) =>
        call.query.get('page') === '2'
          ? page(emptied ? [] : [product(11)], emptied ? 10 : 11)
          : page([product(1)], 10),
      [`DELETE /api/products/delete/${product(11)._id}`]: () => {
        emptied = true;
        return { body: { message: 'Product deleted' } };
      },
    });
    renderProducts('/all-products?q=gl&page=2');

    expect(await screen.findByRole('searchbox', { name: 'Search products' })).toHaveValue('gl');
    await userEvent.click(await screen.findByRole('button', { name: 'Delete Product 11' }));
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete' }));

    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/all-products\?q=gl$/));
    expect(await screen.findByText('Product 1')).toBeInTheDocument();
    expect(api.calls.at(-1)?.query.get('page')).toBe('1');
  });
});
