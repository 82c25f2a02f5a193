import type { EventEnvelope } from './event-envelope';

export const ORDER_PAID = 'order.paid';

/**
 * An order's payment moved on: the customer paid with a receipt (`status: 'Pending'`, `by:
 * 'customer'`), or an admin confirmed it (`status: 'Paid'`, `by: 'admin'`). One order may have both.
 */
export type OrderPaidEvent = EventEnvelope<
  typeof ORDER_PAID,
  {
    orderId: string;
    userId: string;
    status: 'Pending' | 'Paid';
    by: 'customer' | 'admin';
    /** ISO date the customer paid (or the admin confirmed, without a receipt). */
    paidAt: string;
    totalPrice: number;
  }
>;
