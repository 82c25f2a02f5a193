import {
  ORDER_CANCELLED,
  ORDER_CREATED,
  ORDER_DELIVERED,
  ORDER_PAID,
  ORDER_REFUNDED,
  type EventEnvelope,
  type OrderCancelledEvent,
  type OrderCreatedEvent,
  type OrderDeliveredEvent,
  type OrderPaidEvent,
  type OrderRefundedEvent,
  orderCancelledData,
  orderCreatedData,
  orderDeliveredData,
  orderPaidData,
  orderRefundedData,
} from '@shop/contracts';
import type { z } from 'zod';
import escapeHtml from 'escape-html';

/** The order events a shopper hears about by e-mail (docs/product/rules.md, "E-mail to shoppers"). */
export const ORDER_MAIL_EVENTS = [
  ORDER_CREATED,
  ORDER_PAID,
  ORDER_DELIVERED,
  ORDER_CANCELLED,
  ORDER_REFUNDED,
];

// Each event's data as its contract declares it, fields it does not know allowed (a later version may add some).
const DATA_SCHEMAS: Record<string, z.ZodObject> = {
  [ORDER_CREATED]: orderCreatedData.loose(),
  [ORDER_PAID]: orderPaidData.loose(),
  [ORDER_DELIVERED]: orderDeliveredData.loose(),
  [ORDER_CANCELLED]: orderCancelledData.loose(),
  [ORDER_REFUNDED]: orderRefundedData.loose(),
};

/** One message: a subject, its plain text and the same as HTML. */
export interface OrderMail {
  /** The order's customer, who receives it. */
  userId: string;
  subject: string;
  text: string;
  html: string;
}

const dollars = (amount: number) => `$${amount.toFixed(2)}`;
const cents = (amount: number) => dollars(amount / 100);

/** Paragraphs as text (blank lines between) and as HTML (each escaped, in its own <p>). */
function body(greeting: string, paragraphs: string[]): Pick<OrderMail, 'text' | 'html'> {
  const all = [greeting, ...paragraphs, 'Thank you for shopping with us.'];
  return {
    text: `${all.join('\n\n')}\n`,
    html: `<!doctype html><html><body>${all.map((line) => `<p>${escapeHtml(line)}</p>`).join('')}</body></html>`,
  };
}

/**
 * The e-mail an order event sends its customer, or undefined for none: order placed, its payment
 * confirmed by the shop (a customer's own 'Pending' is not news to them), delivered, cancelled, refunded.
 * `name` is the customer's, as the account has it. It throws on an event whose data is not what its
 * contract declares (a field missing): the consumer logs it and sends nothing rather than a wrong message.
 */
export function orderMail(event: EventEnvelope, name: string): OrderMail | undefined {
  const schema = DATA_SCHEMAS[event.type];
  if (!schema) return undefined;
  const checked = schema.safeParse(event.data);
  if (!checked.success) throw new Error(`${event.type} ${event.id}: ${checked.error.message}`);
  const hello = `Hello ${name},`;
  switch (event.type) {
    case ORDER_CREATED: {
      const { orderId, userId, totalPrice, items } = (event as OrderCreatedEvent).data;
      const units = items.reduce((sum, item) => sum + item.quantity, 0);
      return {
        userId,
        subject: `Order ${orderId} placed`,
        ...body(hello, [
          `We have your order ${orderId}: ${units} item${units === 1 ? '' : 's'}, ${dollars(totalPrice)} in all.`,
          'Pay by the method you chose, then upload the receipt on the order page. We hold the items for you meanwhile.',
        ]),
      };
    }
    case ORDER_PAID: {
      const { orderId, userId, status, totalPrice } = (event as OrderPaidEvent).data;
      if (status !== 'Paid') return undefined;
      return {
        userId,
        subject: `Payment received for order ${orderId}`,
        ...body(hello, [
          `We have received your payment of ${dollars(totalPrice)} for order ${orderId}.`,
          'We will let you know when it is delivered.',
        ]),
      };
    }
    case ORDER_DELIVERED: {
      const { orderId, userId } = (event as OrderDeliveredEvent).data;
      return {
        userId,
        subject: `Order ${orderId} delivered`,
        ...body(hello, [`Your order ${orderId} has been delivered.`]),
      };
    }
    case ORDER_CANCELLED: {
      const { orderId, userId, by, wasPaid } = (event as OrderCancelledEvent).data;
      return {
        userId,
        subject: `Order ${orderId} cancelled`,
        ...body(hello, [
          by === 'customer'
            ? `You cancelled your order ${orderId}.`
            : `We have cancelled your order ${orderId}.`,
          wasPaid
            ? 'We will send your payment back and let you know when we have.'
            : 'Nothing is owed on it.',
        ]),
      };
    }
    case ORDER_REFUNDED: {
      const { orderId, userId, amountCents, refundedCents, totalCents, reference, reason, cancelled } = (
        event as OrderRefundedEvent
      ).data;
      return {
        userId,
        subject: `Refund of ${cents(amountCents)} for order ${orderId}`,
        ...body(hello, [
          `We have sent you ${cents(amountCents)} for order ${orderId} (payment reference ${reference}): ${reason}`,
          refundedCents >= totalCents
            ? `That is the whole ${cents(totalCents)} of the order${cancelled ? ', which is now cancelled' : ''}.`
            : `${cents(refundedCents)} of its ${cents(totalCents)} has been refunded so far.`,
        ]),
      };
    }
    default:
      return undefined;
  }
}
