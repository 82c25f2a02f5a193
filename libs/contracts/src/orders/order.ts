import type { OrderStatus } from './order-status';
import type { PaymentMethod } from './pricing';

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
export interface ShippingAddress {
  fullName: string;
  address: string;
  city: string;
  country: string;
  phoneNumber: string;
}

/** One line of a stored order: catalogue name, price and image as they were when it was placed. */
export interface OrderItem {
  /** The product's id. */
  _id: string;
  name: string;
  quantity: number;
  /** Unit price. */
  price: number;
  /** The product's first image URL, or ''. */
  image: string;
}

/**
 * An order as the API answers it (docs/product/data.md, "Order"). Amounts have two decimals and are
 * computed by the server.
 */
export interface Order {
  _id: string;
  /** The id of the user who placed it. */
  user: string;
  orderItems: OrderItem[];
  shippingAddress: ShippingAddress;
  paymentMethod: PaymentMethod;
  itemsPrice: number;
  taxPrice: number;
  /** The bitcoin discount (0 for other methods). */
  discount: number;
  shippingPrice: number;
  totalPrice: number;
  isPaid: boolean;
  /** ISO date, or null while unpaid. */
  paidAt: string | null;
  isDelivered: boolean;
  deliveredAt: string | null;
  status: OrderStatus;
  /** Receipt image URL ('' until the customer pays). */
  paymentReceipt: string;
  createdAt: string;
  updatedAt: string;
}

/**
 * Body of `POST api/orders`. Only product ids and quantities count: names, prices and every
 * total the client sends are ignored and recomputed from the catalogue.
 */
export interface PlaceOrderRequest {
  orderItems: { _id: string; quantity: number; name?: string; price?: number; image?: string }[];
  shippingAddress: ShippingAddress;
  paymentMethod: PaymentMethod;
  itemsPrice?: number;
  taxPrice?: number;
  shippingPrice?: number;
  totalPrice?: number;
}

/** Body of `PUT api/orders/{orderId}/pay`: the uploaded receipt (one of our media URLs). */
export interface PayOrderRequest {
  orderId?: string;
  receiptUrl: string;
}

/** Query of the admin list `GET api/orders`; the answer is an array, the filtered total in `X-Total-Count` (`TOTAL_COUNT_HEADER`). */
export interface OrderListQuery {
  status?: OrderStatus;
  paid?: boolean;
  delivered?: boolean;
  /** Case-insensitive text in the order id, customer id, shipping details, payment method or item names. */
  q?: string;
  /** 1-based page number (default 1). */
  page?: number;
  /** Orders per page (default 100, at most 500). */
  limit?: number;
}

/**
 * Query of the customer's own list `GET api/orders/mine`: newest first, one page at a time
 * (`page` from 1, `limit` default 100, at most 500); the total is in `X-Total-Count`.
 */
export type MyOrdersQuery = Pick<OrderListQuery, 'page' | 'limit'>;

/** Answer of `DELETE api/orders/delete/{id}`. */
export interface OrderDeleted {
  _id: string;
  message: string;
  /** Whether the order's stock goes back to the shelf (its payment was never confirmed). */
  stockReturned: boolean;
}
