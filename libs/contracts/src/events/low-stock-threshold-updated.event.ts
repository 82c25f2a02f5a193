import { z } from 'zod';
import { count, id } from '../messages/fields';
import type { EventEnvelope } from './event-envelope';

export const LOW_STOCK_THRESHOLD_UPDATED = 'settings.low-stock-threshold.updated';

/**
 * An admin saved the site's low-stock threshold (docs/product/rules.md, "Low stock"), with the other
 * settings: products without a threshold of their own are low on stock at this many units or fewer.
 * An event of its own beside `settings.updated`, whose closed payload cannot gain a field.
 */
export const lowStockThresholdUpdatedData = z.strictObject({
  settingsId: id('The settings document'),
  lowStockThreshold: count('The low-stock threshold of products without one of their own'),
});

export type LowStockThresholdUpdatedEvent = EventEnvelope<
  typeof LOW_STOCK_THRESHOLD_UPDATED,
  z.infer<typeof lowStockThresholdUpdatedData>
>;
