import { z } from 'zod';
import { id, isoDate, stockLine } from '../messages/fields';
import type { EventEnvelope } from './event-envelope';

export const ORDER_CANCELLED = 'order.cancelled';

/** An order was cancelled, by its customer (while unpaid) or by an admin (any not delivered); its stock goes back. */
export const orderCancelledData = z.strictObject({
  orderId: id('The cancelled order'),
  userId: id('Its customer'),
  by: z.enum(['customer', 'admin']).describe('Who cancelled it'),
  cancelledAt: isoDate('When it was cancelled'),
  items: z.array(stockLine()),
  wasPaid: z.boolean().describe('Whether its payment had been confirmed (status Paid)'),
});

export type OrderCancelledEvent = EventEnvelope<typeof ORDER_CANCELLED, z.infer<typeof orderCancelledData>>;
