import { type MyOrdersQuery, ORDERS_API, type Order } from '@shop/contracts';
import { type PagedApiGetState, usePagedApiGet } from '@shop/ui';

/** Orders per page of the history. */
const ORDERS_PER_PAGE = 10;

/** One page of the signed-in customer's orders, newest first (`GET /api/orders/mine?page=&limit=`). */
export function useMyOrders(page: number): PagedApiGetState<Order> {
  const query: Required<MyOrdersQuery> = { page, limit: ORDERS_PER_PAGE };
  return usePagedApiGet<Order>(`${ORDERS_API}/mine?page=${query.page}&limit=${query.limit}`, ORDERS_PER_PAGE);
}
