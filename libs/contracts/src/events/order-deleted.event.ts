import { z } from 'zod';
import { id, stockLine } from '../messages/fields';
import type { EventEnvelope } from './event-envelope';

export const ORDER_DELETED = 'order.deleted';

/** An admin deleted an order; `stockReturned` says whether its stock goes back (it was never confirmed paid). */
export const orderDeletedData = z.strictObject({
  orderId: id('The deleted order'),
  userId: id('Its customer'),
  items: z.array(stockLine()),
  wasPaid: z.boolean(),
  stockReturned: z.boolean().describe('Whether its stock goes back (never confirmed paid)'),
});

export type OrderDeletedEvent = EventEnvelope<typeof ORDER_DELETED, z.infer<typeof orderDeletedData>>;
