import { BadRequestException } from '@nestjs/common';
import type { QueryFilter } from 'mongoose';
import type { OrderRecord } from './order.schema';

/** The answer to an order the caller may not see, or that does not exist: the same, so nothing leaks. */
export const ORDER_NOT_FOUND = 'Order Not Found';

const OBJECT_ID = /^[0-9a-f]{24}$/i;

/** Whether `text` is an order id (24 hexadecimal digits, either case). */
export const isOrderId = (text: string): boolean => OBJECT_ID.test(text);

/** The order id of a path, lower-cased; anything else is refused (400). */
export function orderId(id: string): string {
  if (!isOrderId(id)) throw new BadRequestException('Invalid order id');
  return id.toLowerCase();
}

/** Deleted orders are invisible to every read. */
export const live = <T extends QueryFilter<OrderRecord>>(filter: T) => ({ ...filter, deletedAt: null });
