import type { EventEnvelope } from './event-envelope';

export const ORDER_DELETED = 'order.deleted';

/** An admin deleted an order; `stockReturned` says whether its stock goes back (it was never confirmed paid). */
export type OrderDeletedEvent = EventEnvelope<
  typeof ORDER_DELETED,
  {
    orderId: string;
    userId: string;
    items: { productId: string; quantity: number }[];
    wasPaid: boolean;
    stockReturned: boolean;
  }
>;
