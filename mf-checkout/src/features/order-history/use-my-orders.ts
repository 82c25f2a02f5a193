import { ORDERS_API, type Order } from '@shop/contracts';
import { type PagedApiGetState, usePagedApiGet } from '@shop/ui';

/** Orders per page of the history. */
const ORDERS_PER_PAGE = 10;

/** One page of the signed-in customer's orders, newest first (`GET /api/orders/mine?page=&limit=`). */
export function useMyOrders(page: number): PagedApiGetState<Order> {
  return usePagedApiGet<Order>(`${ORDERS_API}/mine?page=${page}&limit=${ORDERS_PER_PAGE}`, ORDERS_PER_PAGE);
}
