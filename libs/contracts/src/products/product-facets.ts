import type { ProductSearchQuery } from './product';

/** The filters of a catalogue search, without its order and paging: what `GET /api/products/facets` takes. */
export type ProductFilterQuery = Pick<
  ProductSearchQuery,
  'query' | 'category' | 'brand' | 'minPrice' | 'maxPrice'
>;

/** One value of a facet and how many live products have it. */
export interface FacetCount {
  value: string;
  count: number;
}

/**
 * The answer of `GET /api/products/facets`: the categories and brands of the products matching a
 * search, each sorted by value. Each facet is counted with every filter but its own (the categories
 * ignore `category`, the brands ignore `brand`), so a chosen value still lists its alternatives.
 */
export interface ProductFacets {
  categories: FacetCount[];
  brands: FacetCount[];
}

export const PRODUCT_FACETS_API = '/api/products/facets';
