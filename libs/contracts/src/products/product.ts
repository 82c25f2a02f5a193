/** A product as the catalogue answers it (docs/product/data.md, "Product"). */
export interface Product {
  _id: string;
  name: string;
  slug: string;
  /** Image URLs (media URLs: `isMediaUrl`); the first is the card and cart image. */
  image: string[];
  category: string;
  brand: string;
  price: number;
  countInStock: number;
  description: string;
  /** 0 to 5. */
  rating: number;
  numReviews: number;
}

/** What every stored slug looks like: lower-case words of letters and digits joined by single dashes. */
export const PRODUCT_SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** Where the catalogue is reachable, relative to the site root. */
export const PRODUCTS_API = '/api/products';

/** Where an admin creates a listing (`POST /api/listings/create`). */
export const LISTINGS_API = '/api/listings';

/**
 * What an admin sends to create (`POST /api/listings/create`) or update
 * (`POST /api/products/update/{id}`) a product. Create answers 201 with the product, update 200.
 */
export interface ProductInput {
  name: string;
  /** Lower-case words joined by '-'; made from the name when empty on create, kept when empty on update. */
  slug?: string;
  /** 1 to 5 media URLs (`/api/media/...`). */
  image: string[];
  category: string;
  brand: string;
  /** At least 1, at most two decimals. */
  price: number;
  /** A whole number: at least 1 on create, at least 0 on update. */
  countInStock: number;
  description: string;
  /** Accepted when 0 to 5, but set by the server: 0 for a new product, unchanged by an update. */
  rating?: number;
  /** Accepted when a whole number >= 0, but set by the server like `rating`. */
  numReviews?: number;
}

/** The answer of `DELETE /api/products/delete/{id}`. */
export interface ProductDeletedResponse {
  message: string;
}

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
export interface ProductSearchQuery {
  /** Text (never a pattern) found case-insensitively in name, brand, category or description. */
  query?: string;
  category?: string;
  brand?: string;
  minPrice?: number;
  maxPrice?: number;
  sort?: ProductSort;
  /** From 1. */
  page?: number;
  /** 1 to 100; 50 when only `page` is given. */
  pageSize?: number;
}

/** The response header that carries the number of products matching a search. */
export const TOTAL_COUNT_HEADER = 'X-Total-Count';
