import type { Order } from '@shop/contracts';
import { apiRequest, totalCount } from '@shop/state';
import { useEffect, useState } from 'react';
import { errorMessage } from '../../shared/error-message';

/** Orders per page of the history. */
export const ORDERS_PER_PAGE = 10;

export type MyOrdersState =
  | { status: 'loading' }
  | { status: 'failed'; message: string }
  | { status: 'loaded'; orders: Order[]; total: number };

/** One page of the signed-in customer's orders, newest first (`GET /api/orders/mine?page=&limit=`). */
export function useMyOrders(page: number): MyOrdersState {
  const [loaded, setLoaded] = useState<{ page: number; state: MyOrdersState } | undefined>(undefined);

  useEffect(() => {
    const controller = new AbortController();
    apiRequest<Order[]>(`/api/orders/mine?page=${page}&limit=${ORDERS_PER_PAGE}`, {
      signal: controller.signal,
    }).then(
      ({ data, headers }) => {
        const orders = Array.isArray(data) ? data : [];
        setLoaded({ page, state: { status: 'loaded', orders, total: totalCount(headers, orders.length) } });
      },
      (error: unknown) => {
        if (!controller.signal.aborted) {
          setLoaded({ page, state: { status: 'failed', message: errorMessage(error) } });
        }
      },
    );
    return () => controller.abort();
  }, [page]);

  return loaded?.page === page ? loaded.state : { status: 'loading' };
}
