import { z } from 'zod';
import { id } from '../messages/fields';
import type { EventEnvelope } from './event-envelope';

export const PRODUCT_DELETED = 'product.deleted';

/** An admin deleted a product: it is gone from the catalogue and can no longer be reserved. */
export const productDeletedData = z.strictObject({ productId: id('The deleted product') });

export type ProductDeletedEvent = EventEnvelope<typeof PRODUCT_DELETED, z.infer<typeof productDeletedData>>;
