import type { QueryOf, Schema } from '../http/api-types';

/** The filters of a catalogue search, without its order and paging: what `GET /api/products/facets` takes. */
export type ProductFilterQuery = QueryOf<'/api/products/facets', 'get'>;

/** One value of a facet and how many live products have it. */
export type FacetCount = Schema<'FacetCountResponse'>;

/**
 * The answer of `GET /api/products/facets`: the categories and brands of the products matching a
 * search, each sorted by value. Each facet is counted with every filter but its own (the categories
 * ignore `category`, the brands ignore `brand`), so a chosen value still lists its alternatives.
 */
export type ProductFacets = Schema<'ProductFacetsResponse'>;

export const PRODUCT_FACETS_API = '/api/products/facets';
