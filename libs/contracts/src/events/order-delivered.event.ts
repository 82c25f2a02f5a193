import type { EventEnvelope } from './event-envelope';

export const ORDER_DELIVERED = 'order.delivered';

/** An admin marked a paid order delivered. */
export type OrderDeliveredEvent = EventEnvelope<
  typeof ORDER_DELIVERED,
  { orderId: string; userId: string; deliveredAt: string }
>;
