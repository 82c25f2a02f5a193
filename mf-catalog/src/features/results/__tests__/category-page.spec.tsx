import type { ProductFacets } from '@shop/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { currentLocation, renderScreen } from '@shop/ui/testing';
import { stubCatalog, testProduct } from '../../../testing/products';
import CategoryPage from '../category-page';

const FACETS: ProductFacets = {
  categories: [
    { value: 'Night Sights', count: 1 },
    { value: 'Pistols', count: 3 },
  ],
  brands: [{ value: 'Glock', count: 3 }],
};

const catalog = (products = [testProduct()]) => stubCatalog({ products, facets: FACETS });

const renderCategory = (url: string) => renderScreen(<CategoryPage />, { path: '/category/:category', url });

describe('Category screen', () => {
  afterEach(() => vi.unstubAllGlobals());

  it("lists the route's category with its name as heading and title", async () => {
    const fetchMock = catalog();
    renderCategory('/category/Pistols');

    expect(await screen.findAllByRole('article')).toHaveLength(1);
    expect(screen.getByRole('heading', { level: 1, name: 'Pistols' })).toBeInTheDocument();
    expect(document.title).toBe('Category: Pistols');
    expect(fetchMock.urls()).toEqual(
      expect.arrayContaining([
        '/api/products?category=Pistols&sort=newest&page=1&pageSize=12',
        '/api/products/facets?category=Pistols',
      ]),
    );
  });

  it('reads a category name with spaces from the path', async () => {
    const fetchMock = catalog();
    renderCategory('/category/Night%20Sights');

    expect(await screen.findByRole('heading', { level: 1, name: 'Night Sights' })).toBeInTheDocument();
    await waitFor(() =>
      expect(fetchMock.urls()).toContain(
        '/api/products?category=Night+Sights&sort=newest&page=1&pageSize=12',
      ),
    );
  });

  it('moves to another category keeping brand, price and order, and to all categories through search', async () => {
    catalog();
    renderCategory('/category/Pistols?brand=Glock&maxPrice=700&sort=name&page=2');

    const categories = within(await screen.findByRole('region', { name: 'Category' }));
    expect(categories.getByRole('link', { name: 'Pistols (3)' })).toHaveAttribute('aria-current', 'true');
    expect(categories.getByRole('link', { name: 'Night Sights (1)' })).toHaveAttribute(
      'href',
      '/category/Night%20Sights?brand=Glock&maxPrice=700&sort=name',
    );
    expect(categories.getByRole('link', { name: 'All categories' })).toHaveAttribute(
      'href',
      '/search?brand=Glock&maxPrice=700&sort=name',
    );
  });

  it('filters by brand within the category, the category staying in the path', async () => {
    catalog();
    renderCategory('/category/Pistols');

    await userEvent.click(await screen.findByRole('link', { name: 'Glock (3)' }));
    await waitFor(() => expect(currentLocation.path).toBe('/category/Pistols?brand=Glock'));
  });

  it('says "No products found" for a category without products', async () => {
    catalog([]);
    renderCategory('/category/Nothing');

    expect(await screen.findByText('No products found')).toBeInTheDocument();
  });
});
