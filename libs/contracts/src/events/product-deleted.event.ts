import type { EventEnvelope } from './event-envelope';

export const PRODUCT_DELETED = 'product.deleted';

/** An admin deleted a product: it is gone from the catalogue and can no longer be reserved. */
export type ProductDeletedEvent = EventEnvelope<typeof PRODUCT_DELETED, { productId: string }>;
