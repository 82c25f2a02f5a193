import { PRODUCT_MESSAGES } from '@shop/contracts';
import { rpcRefusal } from '@shop/service-kit';
import type { ReservationRefusal } from './stock-reservation.schema';

export const OUT_OF_STOCK: ReservationRefusal = { status: 409, message: PRODUCT_MESSAGES.outOfStock };
export const NOT_FOUND: ReservationRefusal = { status: 404, message: PRODUCT_MESSAGES.notFound };
export const DUPLICATE_LINES: ReservationRefusal = {
  status: 400,
  message: 'Each product may appear only once in a reservation',
};
export const NO_LINES: ReservationRefusal = { status: 400, message: 'A reservation needs at least one line' };
export const ID_REUSED: ReservationRefusal = {
  status: 409,
  message: 'This reservation id was used for other items',
};
export const RELEASED: ReservationRefusal = { status: 409, message: 'This reservation was released' };
// 503s: the caller's requestReply turns them into "please try again".
export const IN_PROGRESS: ReservationRefusal = {
  status: 503,
  message: 'This reservation is still being processed',
};
export const INTERRUPTED: ReservationRefusal = { status: 503, message: 'The reservation was interrupted' };

/** Refuses a stock command: the caller gets the refusal's status and message. */
export function refuse(refusal: ReservationRefusal): never {
  throw rpcRefusal(refusal.status, refusal.message);
}
