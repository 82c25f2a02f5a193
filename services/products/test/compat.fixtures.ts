import { randomUUID } from 'node:crypto';
import {
  ORDER_PAID,
  PRODUCT_UPDATED,
  USER_DELETED,
  USER_PASSWORD_RESET,
  type StockRequestItem,
} from '@shop/contracts';

/*
 * Messages in the shape the build before schema versions (commit cf99fb5) put on the wire, each
 * built as that build's code built it (the file named on each). Ids and values are the test's; the
 * fields, their names and their nesting are that build's. `future` adds what a later build may send:
 * a version this build knows and fields it does not.
 */

/** cf99fb5 `libs/service-kit/src/events/new-event.ts`: no schemaVersion. */
function previousEnvelope<TData>(type: string, data: TData) {
  return { id: randomUUID(), type, occurredAt: new Date().toISOString(), data };
}

/** cf99fb5 `services/orders/src/orders/orders.service.ts` `markPaid` (an admin confirms a payment). */
export const previousOrderPaid = (orderId: string, userId: string, totalPrice: number) =>
  previousEnvelope(ORDER_PAID, {
    orderId,
    userId,
    status: 'Paid',
    by: 'admin',
    paidAt: new Date().toISOString(),
    totalPrice,
  });

/** cf99fb5 `services/users/src/users/users-admin.service.ts` `delete`. */
export const previousUserDeleted = (userId: string) => previousEnvelope(USER_DELETED, { userId });

/** cf99fb5 `services/users/src/recovery/password-recovery.service.ts` (a reset with a one-time code). */
export const previousPasswordReset = (userId: string, sessionsValidFrom: number) =>
  previousEnvelope(USER_PASSWORD_RESET, { userId, sessionsValidFrom, via: 'reset' });

/**
 * cf99fb5 `services/products/src/products/products-admin.service.ts` `updatedEvent`, as
 * `libs/service-kit/src/outbox/outbox.schema.ts` `outboxPush` stored it in the product's outbox.
 */
export const previousProductUpdatedEntry = (productId: string, slug: string, name: string) =>
  previousEnvelope(PRODUCT_UPDATED, { productId, slug, name, price: 12.5, countInStock: 4 });

/** cf99fb5 `services/orders/src/stock/catalogue-stock.client.ts` `reserve`. */
export const previousReserveRequest = (reservationId: string, items: StockRequestItem[]) => ({
  reservationId,
  items,
});

/** cf99fb5 `services/orders/src/stock/catalogue-stock.client.ts` `release`. */
export const previousReleaseRequest = (reservationId: string) => ({ reservationId });

/** What a later build might send: a version this build knows, and fields it does not. */
export function future<T extends object>(message: T): T & { schemaVersion: number; traceId: string } {
  return { ...message, schemaVersion: 1, traceId: `trace-${randomUUID()}` };
}
