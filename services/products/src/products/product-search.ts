import {
  PRODUCT_LIMITS,
  type ProductFilterQuery,
  type ProductSearchQuery,
  type ProductSort,
} from '@shop/contracts';
import { type PageWindow, escapeRegex, pageWindow } from '@shop/service-kit';

/**
 * What a search keeps of the catalogue, before any order or page, and the whole query: the shapes
 * the OpenAPI document gives `GET /api/products/facets` and `GET /api/products` (from the DTOs).
 */
export type ProductFilter = ProductFilterQuery;
export type ProductSearch = ProductSearchQuery;

export interface ProductSearchPlan {
  filter: Record<string, unknown>;
  sort: Record<string, 1 | -1>;
  /** Absent when the whole match is asked for. */
  page?: PageWindow;
}

const SORTS: Record<ProductSort, Record<string, 1 | -1>> = {
  // The id breaks ties so pages never shuffle.
  newest: { createdAt: -1, _id: -1 },
  'price-asc': { price: 1, _id: 1 },
  'price-desc': { price: -1, _id: -1 },
  rating: { rating: -1, numReviews: -1, _id: -1 },
  name: { name: 1, _id: 1 },
};

/** The database filter of a search's criteria; deleted products never match. */
export function productFilter(search: ProductFilter): Record<string, unknown> {
  const filter: Record<string, unknown> = { deletedAt: null };
  const text = search.query?.trim();
  if (text) {
    const pattern = new RegExp(escapeRegex(text), 'i');
    filter['$or'] = ['name', 'brand', 'category', 'description'].map((field) => ({ [field]: pattern }));
  }
  if (search.category) filter['category'] = search.category;
  if (search.brand) filter['brand'] = search.brand;
  if (search.lowStock) filter['lowStock'] = true;
  if (search.minPrice !== undefined || search.maxPrice !== undefined) {
    filter['price'] = {
      ...(search.minPrice !== undefined && { $gte: search.minPrice }),
      ...(search.maxPrice !== undefined && { $lte: search.maxPrice }),
    };
  }
  return filter;
}

/** Turns a validated search into a database filter, a sort and a page. */
export function planProductSearch(search: ProductSearch): ProductSearchPlan {
  const filter = productFilter(search);
  const paged = search.page !== undefined || search.pageSize !== undefined;
  return {
    filter,
    sort: SORTS[search.sort ?? 'newest'],
    ...(paged && { page: pageWindow(search.page, search.pageSize ?? PRODUCT_LIMITS.defaultPageSize) }),
  };
}

/**
 * The filters of each facet of a search: every criterion but the facet's own, so the categories of a
 * search within one category still list the others (and the brands likewise).
 */
export function planProductFacets(
  search: ProductFilter,
): Record<'category' | 'brand', Record<string, unknown>> {
  return {
    category: productFilter({ ...search, category: undefined }),
    brand: productFilter({ ...search, brand: undefined }),
  };
}
