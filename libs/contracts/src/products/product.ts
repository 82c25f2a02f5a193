import type { QueryOf, Schema } from '../http/api-types';

/**
 * A product as the catalogue answers it (docs/product/data.md, "Product"): `image` holds media URLs
 * (`isMediaUrl`), the first the card and cart image; `rating` is 0 to 5.
 */
export type Product = Schema<'ProductResponse'>;

/** What every stored slug looks like: lower-case words of letters and digits joined by single dashes. */
export const PRODUCT_SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** Where the catalogue is reachable, relative to the site root. */
export const PRODUCTS_API = '/api/products';

/** Where an admin creates a listing (`POST /api/listings/create`). */
export const LISTINGS_API = '/api/listings';

/**
 * What an admin sends to create (`POST /api/listings/create`) or update
 * (`POST /api/products/update/{id}`) a product; create answers 201 with the product, update 200. A
 * slug empty on create is made from the name, and kept on update; `image` holds 1 to 5 media URLs;
 * `price` is at least 1 with two decimals at most; `countInStock` is a whole number, at least 1 on
 * create and 0 on update; `rating` and `numReviews` are accepted but set by the server.
 */
export type ProductInput = Schema<'CreateProductDto'>;

/** The answer of `DELETE /api/products/delete/{id}`. */
export type ProductDeletedResponse = Schema<'ProductDeletedBody'>;

export const PRODUCT_LIMITS = {
  minImages: 1,
  maxImages: 5,
  minPrice: 1,
  maxPrice: 1_000_000,
  maxCountInStock: 1_000_000,
  maxPageSize: 100,
  defaultPageSize: 50,
} as const;

/**
 * Messages the storefront shows as they are (docs/product/messages.md, "Server texts the screens rely on").
 */
export const PRODUCT_MESSAGES = {
  notFound: 'Product Not Found',
  outOfStock: 'Sorry. Product is out of stock',
  noImage: 'You must upload at least one image',
  tooManyImages: 'You can only upload 5 images per listing',
  slugTaken: 'A product with this slug already exists',
  deleted: 'Product deleted',
} as const;

export const PRODUCT_SORTS = ['newest', 'price-asc', 'price-desc', 'rating', 'name'] as const;
export type ProductSort = (typeof PRODUCT_SORTS)[number];

/**
 * The query of `GET /api/products`. Every parameter is optional: without any, the whole catalogue,
 * newest first. Paging is asked for with `page` and/or `pageSize`; the answer is always a JSON array
 * and the number of matching products is in the `X-Total-Count` header.
 */
export type ProductSearchQuery = QueryOf<'/api/products', 'get'>;

/** The response header that carries the number of products matching a search. */
export const TOTAL_COUNT_HEADER = 'X-Total-Count';
