import { z } from 'zod';
import { id, money, positive, stockLine, text } from '../messages/fields';

/**
 * Request/reply commands the products service answers over NATS (queue group `products`).
 * Refusals come back as `{ status, message }`: 409 'Sorry. Product is out of stock', 404
 * 'Product Not Found', 400 for a malformed request. Both carry `schemaVersion` on the wire
 * (`COMMAND_SCHEMA_VERSIONS`); a request or reply without one is version 1, and either end ignores
 * fields it does not know.
 */
export const PRODUCTS_RESERVE = 'products.reserve';
export const PRODUCTS_RELEASE = 'products.release';

/** A product and a positive whole quantity; lines for the same product are merged by the caller. */
export type StockRequestItem = z.infer<ReturnType<typeof stockLine>>;

/**
 * Take stock for every item, all or none. `reservationId` is the caller's key (orders use the new
 * order's id): repeating a reserve with the same id answers the first result and takes nothing more.
 */
export const reserveStockRequest = z.strictObject({
  reservationId: id("The caller's key: the new order's id"),
  items: z.array(stockLine()),
});
export type ReserveStockRequest = z.infer<typeof reserveStockRequest>;

/** The authoritative catalogue data of a reserved line: the server prices orders from this. */
const reservedItem = z.strictObject({
  productId: id('A product'),
  name: text(),
  price: money('Unit price as the catalogue holds it'),
  image: z.string().describe("First product image URL, or ''"),
  quantity: positive('How many'),
});
export type ReservedItem = z.infer<typeof reservedItem>;

export const reserveStockReply = z.strictObject({
  reservationId: id('The reservation'),
  items: z.array(reservedItem),
});
export type ReserveStockReply = z.infer<typeof reserveStockReply>;

/** Give a reservation's stock back; however often it is sent, stock comes back once. */
export const releaseStockRequest = z.strictObject({ reservationId: id('The reservation to give back') });
export type ReleaseStockRequest = z.infer<typeof releaseStockRequest>;

/** `released` is false when it had been released already, never taken, or sold (a paid order). */
export const releaseStockReply = z.strictObject({
  reservationId: id('The reservation'),
  released: z.boolean().describe('Whether this call gave the stock back'),
});
export type ReleaseStockReply = z.infer<typeof releaseStockReply>;
