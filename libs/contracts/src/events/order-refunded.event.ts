import { z } from 'zod';
import { count, id, isoDate, positive, stockLine, text } from '../messages/fields';
import type { EventEnvelope } from './event-envelope';

export const ORDER_REFUNDED = 'order.refunded';

/**
 * An admin recorded a refund of a paid order (money given back by hand, as it was paid). The refund that
 * completes the total of an order not delivered also cancels it, and its stock goes back (`cancelled`).
 */
export const orderRefundedData = z.strictObject({
  orderId: id('The refunded order'),
  userId: id('Its customer'),
  refundId: id("This refund, one of the order's refunds"),
  amountCents: positive('What this refund gave back, in cents'),
  refundedCents: count("What the order's refunds gave back in all, in cents"),
  totalCents: count("The order's total, in cents"),
  reference: text().describe('The payment reference of the money given back'),
  reason: text().describe('Why, as the admin wrote it'),
  refundedAt: isoDate('When it was recorded'),
  cancelled: z
    .boolean()
    .describe('This refund completed the total of an order not delivered, and cancelled it'),
  items: z.array(stockLine()).describe("The order's lines (their stock went back when cancelled)"),
});

export type OrderRefundedEvent = EventEnvelope<typeof ORDER_REFUNDED, z.infer<typeof orderRefundedData>>;
