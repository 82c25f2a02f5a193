import type { EventEnvelope } from './event-envelope';

export const PRODUCT_UPDATED = 'product.updated';

/**
 * An admin created or updated a product. Stock taken or given back by reservations does not raise
 * it, so `countInStock` is the value the admin set, not a live stock level.
 */
export type ProductUpdatedEvent = EventEnvelope<
  typeof PRODUCT_UPDATED,
  { productId: string; slug: string; name: string; price: number; countInStock: number }
>;
