/**
 * Request/reply commands the products service answers over NATS (queue group `products`).
 * Refusals come back as `{ status, message }`: 409 'Sorry. Product is out of stock', 404
 * 'Product Not Found', 400 for a malformed request. Both carry `schemaVersion` on the wire
 * (`COMMAND_SCHEMA_VERSIONS`); a request or reply without one is version 1, and either end ignores
 * fields it does not know.
 */
export const PRODUCTS_RESERVE = 'products.reserve';
export const PRODUCTS_RELEASE = 'products.release';

export interface StockRequestItem {
  productId: string;
  /** A positive whole number; lines for the same product are merged by the caller. */
  quantity: number;
}

/**
 * Take stock for every item, all or none. `reservationId` is the caller's key (orders use the new
 * order's id): repeating a reserve with the same id answers the first result and takes nothing more.
 */
export interface ReserveStockRequest {
  reservationId: string;
  items: StockRequestItem[];
}

/** The authoritative catalogue data of a reserved line: the server prices orders from this. */
export interface ReservedItem {
  productId: string;
  name: string;
  /** Unit price in the shop's currency, as the catalogue holds it (two decimals at most). */
  price: number;
  /** First product image URL, or '' when the product has none. */
  image: string;
  quantity: number;
}

export interface ReserveStockReply {
  reservationId: string;
  items: ReservedItem[];
}

/** Give a reservation's stock back; however often it is sent, stock comes back once. */
export interface ReleaseStockRequest {
  reservationId: string;
}

export interface ReleaseStockReply {
  reservationId: string;
  /** True when this call gave the stock back; false when it had been released already, never taken, or sold (a paid order). */
  released: boolean;
}
