import { ORDERS_API, type Order } from '@shop/contracts';
import { useApiGet } from '@shop/ui';

export const ORDER_NOT_FOUND = 'Order Not Found';

const ORDER_ID = /^[0-9a-f]{24}$/i;

type OrderState =
  | { status: 'loading' }
  | { status: 'not-found' }
  | { status: 'failed'; message: string }
  | { status: 'loaded'; order: Order };

/**
 * One order (`GET /api/orders/{id}`). A malformed id is not found without asking; the server's 400
 * (malformed) and 404 (unknown, or someone else's) read the same: not found. `replace` puts the
 * server's newer answer (after paying) in place.
 */
export function useOrder(id: string): { state: OrderState; replace: (order: Order) => void } {
  const malformed = !ORDER_ID.test(id);
  const order = useApiGet<Order>(malformed ? null : `${ORDERS_API}/${id}`);
  const state: OrderState = malformed
    ? { status: 'not-found' }
    : order.status === 'loaded'
      ? { status: 'loaded', order: order.response.data }
      : order.status === 'failed' && (order.httpStatus === 400 || order.httpStatus === 404)
        ? { status: 'not-found' }
        : order;
  return { state, replace: order.replace };
}
