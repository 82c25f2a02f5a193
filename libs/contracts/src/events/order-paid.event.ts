import { z } from 'zod';
import { id, isoDate, money } from '../messages/fields';
import type { EventEnvelope } from './event-envelope';

export const ORDER_PAID = 'order.paid';

/**
 * An order's payment moved on: the customer paid with a receipt (`status: 'Pending'`, `by:
 * 'customer'`), or an admin confirmed it (`status: 'Paid'`, `by: 'admin'`). One order may have both.
 */
export const orderPaidData = z.strictObject({
  orderId: id('The order'),
  userId: id('Its customer'),
  status: z.enum(['Pending', 'Paid']),
  by: z.enum(['customer', 'admin']),
  paidAt: isoDate('When the customer paid (or the admin confirmed, without a receipt)'),
  totalPrice: money('The order total'),
});

export type OrderPaidEvent = EventEnvelope<typeof ORDER_PAID, z.infer<typeof orderPaidData>>;
