import type { EventEnvelope } from './event-envelope';

export const PRODUCT_UPDATED = 'product.updated';

/** A product's catalogue data changed (or it was created). */
export type ProductUpdatedEvent = EventEnvelope<
  typeof PRODUCT_UPDATED,
  { productId: string; name: string; price: number; countInStock: number }
>;
