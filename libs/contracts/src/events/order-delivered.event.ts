import { z } from 'zod';
import { id, isoDate } from '../messages/fields';
import type { EventEnvelope } from './event-envelope';

export const ORDER_DELIVERED = 'order.delivered';

/** An admin marked a paid order delivered. */
export const orderDeliveredData = z.strictObject({
  orderId: id('The order'),
  userId: id('Its customer'),
  deliveredAt: isoDate('When the admin marked it delivered'),
});

export type OrderDeliveredEvent = EventEnvelope<typeof ORDER_DELIVERED, z.infer<typeof orderDeliveredData>>;
