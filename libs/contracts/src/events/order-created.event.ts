import { z } from 'zod';
import { id, money, positive } from '../messages/fields';
import { PAYMENT_METHODS } from '../orders/pricing';
import type { EventEnvelope } from './event-envelope';

export const ORDER_CREATED = 'order.created';

/** A customer placed an order; its stock is already taken (reservation id = order id). */
export const orderCreatedData = z.strictObject({
  orderId: id('The new order'),
  userId: id('The customer who placed it'),
  items: z.array(
    z.strictObject({
      productId: id('A product of the catalogue'),
      quantity: positive('How many'),
      price: money('Unit price the order was priced with'),
    }),
  ),
  paymentMethod: z.enum(PAYMENT_METHODS),
  totalPrice: money('What the customer pays, shipping and tax included'),
});

export type OrderCreatedEvent = EventEnvelope<typeof ORDER_CREATED, z.infer<typeof orderCreatedData>>;
