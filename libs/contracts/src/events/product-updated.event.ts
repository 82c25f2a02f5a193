import { z } from 'zod';
import { count, id, money, text } from '../messages/fields';
import type { EventEnvelope } from './event-envelope';

export const PRODUCT_UPDATED = 'product.updated';

/**
 * An admin created or updated a product. Stock taken or given back by reservations does not raise
 * it, so `countInStock` is the value the admin set, not a live stock level.
 */
export const productUpdatedData = z.strictObject({
  productId: id('The product'),
  slug: text(),
  name: text(),
  price: money('Unit price'),
  countInStock: count('The stock the admin set (not a live level)'),
});

export type ProductUpdatedEvent = EventEnvelope<typeof PRODUCT_UPDATED, z.infer<typeof productUpdatedData>>;
