import type { PaymentMethod } from '../orders/pricing';
import type { EventEnvelope } from './event-envelope';

export const ORDER_CREATED = 'order.created';

/** A customer placed an order; its stock is already taken (reservation id = order id). */
export type OrderCreatedEvent = EventEnvelope<
  typeof ORDER_CREATED,
  {
    orderId: string;
    userId: string;
    items: { productId: string; quantity: number; price: number }[];
    paymentMethod: PaymentMethod;
    totalPrice: number;
  }
>;
