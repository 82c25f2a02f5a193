import type { Order } from '@shop/contracts';
import { apiFetch } from '@shop/state';
import { useEffect, useState } from 'react';
import { errorMessage, errorStatus } from '../../shared/error-message';

export const ORDER_NOT_FOUND = 'Order Not Found';

const ORDER_ID = /^[0-9a-f]{24}$/i;

export type OrderState =
  | { status: 'loading' }
  | { status: 'not-found' }
  | { status: 'failed'; message: string }
  | { status: 'loaded'; order: Order };

type Loaded = { id: string; state: OrderState };

/**
 * One order (`GET /api/orders/{id}`). A malformed id is not found without asking; the server's 400
 * (malformed) and 404 (unknown, or someone else's) read the same: not found. `replace` puts the
 * server's newer answer (after paying) in place.
 */
export function useOrder(id: string) {
  const malformed = !ORDER_ID.test(id);
  const [loaded, setLoaded] = useState<Loaded | undefined>(undefined);

  useEffect(() => {
    if (malformed) return;
    const controller = new AbortController();
    apiFetch<Order>(`/api/orders/${id}`, { signal: controller.signal }).then(
      (order) => setLoaded({ id, state: { status: 'loaded', order } }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        const status = errorStatus(error);
        setLoaded({
          id,
          state:
            status === 400 || status === 404
              ? { status: 'not-found' }
              : { status: 'failed', message: errorMessage(error) },
        });
      },
    );
    return () => controller.abort();
  }, [id, malformed]);

  const state: OrderState = malformed
    ? { status: 'not-found' }
    : loaded?.id === id
      ? loaded.state
      : { status: 'loading' };
  const replace = (order: Order) => setLoaded({ id, state: { status: 'loaded', order } });
  return { state, replace };
}
