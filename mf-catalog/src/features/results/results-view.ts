import { PRODUCT_FACETS_API, PRODUCT_SORTS, PRODUCTS_API, type ProductSort } from '@shop/contracts';

/** Products per page of results: three rows of the four-column grid. */
export const PAGE_SIZE = 12;

const DEFAULT_SORT: ProductSort = 'newest';

/** What a results screen shows; the URL holds all of it, so a link or a reload shows the same view. */
export interface ResultsView {
  /** '' lists everything. */
  query: string;
  /** '' is every category. */
  category: string;
  /** '' is every brand. */
  brand: string;
  minPrice?: number;
  maxPrice?: number;
  sort: ProductSort;
  /** From 1. */
  page: number;
}

const isSort = (value: string | null): value is ProductSort =>
  (PRODUCT_SORTS as readonly (string | null)[]).includes(value);

function price(value: string | null): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const number = Number(value);
  return Number.isFinite(number) && number >= 0 ? number : undefined;
}

function pageNumber(value: string | null): number {
  const number = Number(value);
  return Number.isSafeInteger(number) && number >= 1 ? number : 1;
}

/**
 * The view a URL asks for. On a category page the category is the route's; parameters that make no
 * sense (an unknown sort, a negative price, page 0) fall back to their defaults rather than fail.
 */
export function readView(params: URLSearchParams, routeCategory?: string): ResultsView {
  let minPrice = price(params.get('minPrice'));
  let maxPrice = price(params.get('maxPrice'));
  // A range written backwards (an edited link) means the same range; the API would refuse it.
  if (minPrice !== undefined && maxPrice !== undefined && minPrice > maxPrice) {
    [minPrice, maxPrice] = [maxPrice, minPrice];
  }
  return {
    query: params.get('query')?.trim() ?? '',
    category: routeCategory ?? params.get('category')?.trim() ?? '',
    brand: params.get('brand')?.trim() ?? '',
    minPrice,
    maxPrice,
    sort: isSort(params.get('sort')) ? (params.get('sort') as ProductSort) : DEFAULT_SORT,
    page: pageNumber(params.get('page')),
  };
}

/** The view after a change of filter or order, which starts again on page 1; a change of page keeps the rest. */
export function changeView(view: ResultsView, change: Partial<ResultsView>): ResultsView {
  return { ...view, page: 1, ...change };
}

function filterEntries(view: ResultsView, withCategory: boolean): [string, string][] {
  const entries: [string, string | number | undefined][] = [
    ['query', view.query],
    ['category', withCategory ? view.category : ''],
    ['brand', view.brand],
    ['minPrice', view.minPrice],
    ['maxPrice', view.maxPrice],
  ];
  return entries.flatMap(([key, value]) =>
    value === undefined || value === '' ? [] : [[key, String(value)]],
  );
}

/**
 * The query string of a view's URL, defaults left out; without the category when the route carries it.
 * Starts with '?' unless empty.
 */
function viewSearch(view: ResultsView, categoryInPath: boolean): string {
  const params = new URLSearchParams(filterEntries(view, !categoryInPath));
  if (view.sort !== DEFAULT_SORT) params.set('sort', view.sort);
  if (view.page > 1) params.set('page', String(view.page));
  const search = params.toString();
  return search ? `?${search}` : '';
}

/** Where a view lives: `/category/{name}?…` when it has a category and came from one, else `/search?…`. */
export function viewUrl(view: ResultsView, onCategoryPage: boolean): string {
  if (onCategoryPage && view.category) {
    return `/category/${encodeURIComponent(view.category)}${viewSearch(view, true)}`;
  }
  return `/search${viewSearch(view, false)}`;
}

/** `GET /api/products` of a view: its filters, order and page. */
export function listPath(view: ResultsView): string {
  const params = new URLSearchParams(filterEntries(view, true));
  params.set('sort', view.sort);
  params.set('page', String(view.page));
  params.set('pageSize', String(PAGE_SIZE));
  return `${PRODUCTS_API}?${params}`;
}

/** `GET /api/products/facets` of a view: its filters only. */
export function facetsPath(view: ResultsView): string {
  const search = new URLSearchParams(filterEntries(view, true)).toString();
  return `${PRODUCT_FACETS_API}${search ? `?${search}` : ''}`;
}

/**
 * The one URL a view's content is indexed under: a category page's filters, order and page all show that
 * category, so they canonicalise to `/category/{name}`; a search canonicalises to its words alone, and a
 * search narrowed by filters is not indexed at all (undefined: `noindex`).
 */
export function canonicalPath(view: ResultsView, onCategoryPage: boolean): string | undefined {
  if (onCategoryPage && view.category) return `/category/${encodeURIComponent(view.category)}`;
  const narrowed = view.category || view.brand || view.minPrice !== undefined || view.maxPrice !== undefined;
  if (narrowed) return undefined;
  return view.query ? `/search?${new URLSearchParams({ query: view.query })}` : '/search';
}
