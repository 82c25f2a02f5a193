import { describe, expect, it } from 'vitest';
import {
  type ResultsView,
  canonicalPath,
  changeView,
  facetsPath,
  listPath,
  readView,
  viewUrl,
} from '../results-view';

const view = (search: string, category?: string) => readView(new URLSearchParams(search), category);

describe('results view in the URL', () => {
  it('reads every filter, the order and the page', () => {
    expect(
      view('query=glock&category=Pistols&brand=Glock&minPrice=100&maxPrice=700&sort=price-asc&page=2'),
    ).toEqual({
      query: 'glock',
      category: 'Pistols',
      brand: 'Glock',
      minPrice: 100,
      maxPrice: 700,
      sort: 'price-asc',
      page: 2,
    });
  });

  it('falls back to the defaults for values that make no sense', () => {
    expect(view('sort=cheapest&page=0&minPrice=-3&maxPrice=abc')).toEqual({
      query: '',
      category: '',
      brand: '',
      minPrice: undefined,
      maxPrice: undefined,
      sort: 'newest',
      page: 1,
    });
    expect(view('page=1.5').page).toBe(1);
  });

  it('reads a price range written backwards as the same range', () => {
    expect(view('minPrice=700&maxPrice=100')).toMatchObject({ minPrice: 100, maxPrice: 700 });
  });

  it("takes a category page's category from the route, not the query", () => {
    expect(view('category=Optics', 'Pistols').category).toBe('Pistols');
  });

  it('writes back the same URL, defaults left out', () => {
    const search = '?query=glock&brand=Glock&minPrice=100&sort=price-asc&page=2';
    expect(viewUrl(view(search), false)).toBe(`/search${search}`);
    expect(viewUrl(view(''), false)).toBe('/search');
    expect(viewUrl(view('brand=Glock&page=3', 'Night Sights'), true)).toBe(
      '/category/Night%20Sights?brand=Glock&page=3',
    );
  });

  it('starts again on page 1 after a change of filter or order, but not of page', () => {
    const page3 = view('brand=Glock&page=3');
    expect(changeView(page3, { sort: 'name' })).toMatchObject({ page: 1, sort: 'name', brand: 'Glock' });
    expect(changeView(page3, { page: 4 })).toMatchObject({ page: 4, brand: 'Glock' });
  });

  it('asks the list for filters, order and one page of 12, and the facets for the filters only', () => {
    const current = view('query=a b&category=Pistols&maxPrice=50&sort=rating&page=2');
    expect(listPath(current)).toBe(
      '/api/products?query=a+b&category=Pistols&maxPrice=50&sort=rating&page=2&pageSize=12',
    );
    expect(facetsPath(current)).toBe('/api/products/facets?query=a+b&category=Pistols&maxPrice=50');
    expect(facetsPath(view(''))).toBe('/api/products/facets');
  });
});

describe('canonicalPath', () => {
  const aView = (change: Partial<ResultsView> = {}): ResultsView => ({
    query: '',
    category: '',
    brand: '',
    sort: 'newest',
    page: 1,
    ...change,
  });

  it('canonicalises a category page’s filters, order and page to the category', () => {
    expect(
      canonicalPath(aView({ category: 'Long Guns', brand: 'Glock', sort: 'price-asc', page: 3 }), true),
    ).toBe('/category/Long%20Guns');
  });

  it('canonicalises a search to its words alone, order and page dropped', () => {
    expect(canonicalPath(aView({ query: 'red dot', sort: 'rating', page: 2 }), false)).toBe(
      '/search?query=red+dot',
    );
    expect(canonicalPath(aView(), false)).toBe('/search');
  });

  it('does not index a search narrowed by a filter', () => {
    expect(canonicalPath(aView({ query: 'dot', brand: 'Holosun' }), false)).toBeUndefined();
    expect(canonicalPath(aView({ category: 'Optics' }), false)).toBeUndefined();
    expect(canonicalPath(aView({ minPrice: 10 }), false)).toBeUndefined();
  });
});
