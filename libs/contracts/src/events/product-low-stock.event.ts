import { z } from 'zod';
import { count, id, text } from '../messages/fields';
import type { EventEnvelope } from './event-envelope';

export const PRODUCT_LOW_STOCK = 'product.low-stock';

/**
 * A product's stock fell to its low-stock threshold or below (docs/product/rules.md, "Low stock"): once
 * per crossing, whatever took the stock (orders, an admin's edit, a lowered threshold). It is published
 * again only after the stock has risen above the threshold and fallen to it once more.
 */
export const productLowStockData = z.strictObject({
  productId: id('The product'),
  name: text(),
  countInStock: count('Its stock when the crossing was seen'),
  threshold: count('The threshold it reached: its own, or the site default'),
});

export type ProductLowStockEvent = EventEnvelope<
  typeof PRODUCT_LOW_STOCK,
  z.infer<typeof productLowStockData>
>;
