import type { QueryOf, Schema } from '../http/api-types';

/** Where the orders API is reachable, relative to the site root. */
export const ORDERS_API = '/api/orders';

/** Header that makes a retried `POST api/orders` answer the first order instead of placing another. */
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';

/** Header set on the answer to a retry that returned an order placed earlier with the same key. */
export const IDEMPOTENT_REPLAYED_HEADER = 'idempotent-replayed';

/** Limits of an order request, shared by the server's validation and the front end's forms. */
export const ORDER_LIMITS = {
  /** Distinct products in one order, after lines for the same product are merged. */
  maxLines: 50,
  /** Units of one product in one order. */
  maxQuantity: 1_000,
  fullName: 100,
  address: 200,
  city: 100,
  country: 100,
  phoneNumber: 30,
  idempotencyKey: 128,
  /** Characters of the admin list's text search. */
  search: 100,
} as const;

/** Shipping details of an order (docs/product/data.md, "Order"); every field is required. */
export type ShippingAddress = Schema<'ShippingAddressResponse'>;

/** One line of a stored order: catalogue name, price and image as they were when it was placed. */
export type OrderItem = Schema<'OrderItemResponse'>;

/**
 * An order as the API answers it (docs/product/data.md, "Order"). Amounts have two decimals and are
 * computed by the server.
 */
export type Order = Schema<'OrderResponse'>;

/**
 * Body of `POST api/orders`. Only product ids and quantities count: names, prices and every
 * total the client sends are ignored and recomputed from the catalogue.
 */
export type PlaceOrderRequest = Schema<'PlaceOrderDto'>;

/** Body of `PUT api/orders/{orderId}/pay`: the uploaded receipt (one of our media URLs). */
export type PayOrderRequest = Schema<'PayOrderDto'>;

/** Query of the admin list `GET api/orders`; the answer is an array, the filtered total in `X-Total-Count` (`TOTAL_COUNT_HEADER`). */
export type OrderListQuery = QueryOf<'/api/orders', 'get'>;

/**
 * Query of the customer's own list `GET api/orders/mine`: newest first, one page at a time
 * (`page` from 1, `limit` default 100, at most 500); the total is in `X-Total-Count`.
 */
export type MyOrdersQuery = QueryOf<'/api/orders/mine', 'get'>;

/** Answer of `DELETE api/orders/delete/{id}`. */
export type OrderDeleted = Schema<'OrderDeletedResponse'>;
