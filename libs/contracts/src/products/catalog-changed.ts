import { z } from 'zod';

/**
 * Plain NATS subject (no JetStream) on which the products service says, after each write, that what the
 * catalogue shows changed: an admin created, edited or removed a product, or an order took or gave back
 * stock. For caches of what the catalogue shows, such as the storefront's rendered pages. At most once:
 * a subscriber drops everything it keeps when its connection to NATS is lost, since messages sent
 * meanwhile are gone.
 */
export const CATALOG_CHANGED = 'catalog.changed';

export const catalogChangedMessage = z.strictObject({
  productIds: z
    .array(z.string())
    .describe('Only the stock of these products changed. Absent: anything may have changed')
    .optional(),
});
export type CatalogChangedMessage = z.infer<typeof catalogChangedMessage>;
