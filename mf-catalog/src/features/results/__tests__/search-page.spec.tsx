import type { Product, ProductFacets } from '@shop/contracts';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { currentLocation, renderScreen, type StubAnswer, stubApi } from '@shop/ui/testing';
import { stubCatalog, testProduct } from '../../../testing/products';
import SearchPage from '../search-page';

const FACETS: ProductFacets = {
  categories: [
    { value: 'Optics', count: 2 },
    { value: 'Pistols', count: 30 },
  ],
  brands: [
    { value: 'Glock', count: 20 },
    { value: 'SIG Sauer', count: 12 },
  ],
};

const products = Array.from({ length: 12 }, (_, index) =>
  testProduct({ _id: `p${index}`, name: `Pistol ${index}`, slug: `pistol-${index}` }),
);

/** The catalog API: a page of `page` products and `total` matches, whatever the query. */
const catalog = (options: { page?: Product[]; total?: number; list?: StubAnswer } = {}) =>
  stubCatalog({
    products: options.page ?? products,
    total: options.total ?? 32,
    list: options.list,
    facets: FACETS,
  });

const renderSearch = (url: string) => renderScreen(<SearchPage />, { path: '/search', url });
/** The screen at `url` over the catalog stub, once its cards are shown; the stub, for its calls. */
const searchShown = async (url: string, options?: Parameters<typeof catalog>[0]) => {
  const fetchMock = catalog(options);
  renderSearch(url);
  await screen.findAllByRole('article');
  return fetchMock;
};
const listCalls = (fetchMock: ReturnType<typeof stubApi>) =>
  fetchMock.urls().filter((url) => url.startsWith('/api/products?'));

describe('Search results screen', () => {
  beforeEach(() => localStorage.clear());
  afterEach(() => vi.unstubAllGlobals());

  it('asks the products API for the query, newest first, one page of 12, and shows the cards and total', async () => {
    const fetchMock = await searchShown('/search?query=glock');

    expect(screen.getAllByRole('article')).toHaveLength(12);
    expect(screen.getByRole('heading', { level: 1, name: 'Search results for “glock”' })).toBeInTheDocument();
    expect(document.title).toBe('Search results for “glock”');
    expect(screen.getByText('32 products')).toBeInTheDocument();
    expect(fetchMock.urls()).toEqual(
      expect.arrayContaining([
        '/api/products?query=glock&sort=newest&page=1&pageSize=12',
        '/api/products/facets?query=glock',
      ]),
    );
  });

  it('lists everything for an empty query', async () => {
    const fetchMock = await searchShown('/search');

    expect(screen.getByRole('heading', { level: 1, name: 'All products' })).toBeInTheDocument();
    expect(listCalls(fetchMock)).toEqual(['/api/products?sort=newest&page=1&pageSize=12']);
  });

  it('says "No products found" when nothing matches', async () => {
    catalog({ page: [], total: 0 });
    renderSearch('/search?query=nothing');

    expect(await screen.findByText('No products found')).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Pagination' })).not.toBeInTheDocument();
  });

  it('offers the categories and brands of the search with their counts', async () => {
    catalog();
    renderSearch('/search?query=glock&page=2');

    const brands = within(await screen.findByRole('region', { name: 'Brand' }));
    expect(brands.getByRole('link', { name: 'All brands' })).toHaveAttribute('aria-current', 'true');
    expect(brands.getByRole('link', { name: 'Glock (20)' })).toHaveAttribute(
      'href',
      '/search?query=glock&brand=Glock',
    );
    const categories = within(screen.getByRole('region', { name: 'Category' }));
    expect(categories.getByRole('link', { name: 'Pistols (30)' })).toHaveAttribute(
      'href',
      '/search?query=glock&category=Pistols',
    );
  });

  it('filters by brand through the URL, and Back shows the view before', async () => {
    const fetchMock = await searchShown('/search?query=glock&page=2');

    await userEvent.click(screen.getByRole('link', { name: 'Glock (20)' }));
    await waitFor(() => expect(currentLocation.path).toBe('/search?query=glock&brand=Glock'));
    expect(screen.getByRole('link', { name: 'Glock (20)' })).toHaveAttribute('aria-current', 'true');
    await waitFor(() =>
      expect(listCalls(fetchMock)).toContain(
        '/api/products?query=glock&brand=Glock&sort=newest&page=1&pageSize=12',
      ),
    );

    act(() => currentLocation.back());
    await waitFor(() => expect(currentLocation.path).toBe('/search?query=glock&page=2'));
    expect(screen.getByRole('link', { name: 'All brands' })).toHaveAttribute('aria-current', 'true');
    expect(screen.getByRole('link', { name: 'Page 2' })).toHaveAttribute('aria-current', 'page');
  });

  it('applies a price range from the form and refuses a minimum above the maximum', async () => {
    const fetchMock = await searchShown('/search?sort=price-asc&page=3');

    await userEvent.type(screen.getByLabelText('Min price ($)'), '700');
    await userEvent.type(screen.getByLabelText('Max price ($)'), '100');
    await userEvent.click(screen.getByRole('button', { name: 'Apply' }));
    expect(screen.getByRole('alert')).toHaveTextContent(
      'The minimum price must not be greater than the maximum.',
    );
    expect(currentLocation.path).toBe('/search?sort=price-asc&page=3');

    await userEvent.clear(screen.getByLabelText('Max price ($)'));
    await userEvent.type(screen.getByLabelText('Max price ($)'), '900.5');
    await userEvent.click(screen.getByRole('button', { name: 'Apply' }));
    await waitFor(() =>
      expect(currentLocation.path).toBe('/search?minPrice=700&maxPrice=900.5&sort=price-asc'),
    );
    await waitFor(() =>
      expect(listCalls(fetchMock)).toContain(
        '/api/products?minPrice=700&maxPrice=900.5&sort=price-asc&page=1&pageSize=12',
      ),
    );
    expect(screen.getByRole('link', { name: 'Any price' })).toHaveAttribute('href', '/search?sort=price-asc');
  });

  it('sorts from the select, starting again on page 1', async () => {
    const fetchMock = await searchShown('/search?query=glock&page=2');

    await userEvent.selectOptions(screen.getByLabelText('Sort by'), 'Price: high to low');
    await waitFor(() => expect(currentLocation.path).toBe('/search?query=glock&sort=price-desc'));
    await waitFor(() =>
      expect(listCalls(fetchMock)).toContain('/api/products?query=glock&sort=price-desc&page=1&pageSize=12'),
    );
  });

  it('pages through the results with the total from X-Total-Count', async () => {
    const fetchMock = await searchShown('/search?brand=Glock', { total: 32 });

    const pages = within(screen.getByRole('navigation', { name: 'Pagination' }));
    expect(pages.getByRole('link', { name: 'Page 1' })).toHaveAttribute('aria-current', 'page');
    expect(pages.getByRole('link', { name: 'Page 3' })).toBeInTheDocument();
    expect(pages.queryByRole('link', { name: 'Page 4' })).not.toBeInTheDocument();
    await userEvent.click(pages.getByRole('link', { name: 'Next' }));

    await waitFor(() => expect(currentLocation.path).toBe('/search?brand=Glock&page=2'));
    await waitFor(() =>
      expect(listCalls(fetchMock)).toContain('/api/products?brand=Glock&sort=newest&page=2&pageSize=12'),
    );
  });

  it('restores a shared link: filters, order, page and the price fields', async () => {
    const fetchMock = await searchShown(
      '/search?query=glock&brand=Glock&minPrice=100&maxPrice=700&sort=rating&page=2',
    );

    expect(listCalls(fetchMock)).toEqual([
      '/api/products?query=glock&brand=Glock&minPrice=100&maxPrice=700&sort=rating&page=2&pageSize=12',
    ]);
    expect(screen.getByLabelText('Min price ($)')).toHaveValue(100);
    expect(screen.getByLabelText('Max price ($)')).toHaveValue(700);
    expect(screen.getByLabelText('Sort by')).toHaveValue('rating');
    expect(screen.getByRole('link', { name: 'Glock (20)' })).toHaveAttribute('aria-current', 'true');
  });

  it('shows a spinner while loading and a red alert with the server message on failure', async () => {
    catalog({ list: { status: 503, body: { message: 'Catalogue is unavailable' } } });
    renderSearch('/search?query=glock');

    expect(screen.getByText('Loading...')).toBeInTheDocument();
    expect(await screen.findByRole('alert')).toHaveTextContent('Catalogue is unavailable');
    expect(screen.queryByRole('article')).not.toBeInTheDocument();
  });

  it('keeps the results when only the filters fail, with their red alert in the filters', async () => {
    stubApi((call) => {
      if (call.path === '/api/products') return { body: products, headers: { 'X-Total-Count': '12' } };
      return { status: 503, body: { message: 'Filters are unavailable' } };
    });
    renderSearch('/search?query=glock');

    expect(await screen.findAllByRole('article')).toHaveLength(12);
    const filters = within(screen.getByRole('complementary', { name: 'Filters' }));
    expect(await filters.findByRole('alert')).toHaveTextContent('Filters are unavailable');
    expect(filters.getByRole('button', { name: 'Apply' })).toBeInTheDocument();
  });

  it('adds a result to the cart with a toast and stays on the results', async () => {
    catalog();
    renderSearch('/search?query=glock');

    const [first] = await screen.findAllByRole('article');
    await userEvent.click(within(first!).getByRole('button', { name: 'Add to Cart' }));
    expect(await screen.findByText('Product added to the cart')).toBeInTheDocument();
    expect(currentLocation.path).toBe('/search?query=glock');
  });
});
