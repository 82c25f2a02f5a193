import type { Product } from '@shop/contracts';
import { apiFetch } from '@shop/state';
import { useEffect, useState } from 'react';

export type ProductsState =
  { status: 'loading' } | { status: 'failed'; message: string } | { status: 'loaded'; products: Product[] };

/** The catalogue list (`GET /api/products`), fetched once per mount. */
export function useProducts(): ProductsState {
  const [state, setState] = useState<ProductsState>({ status: 'loading' });

  useEffect(() => {
    const controller = new AbortController();
    apiFetch<Product[]>('/api/products', { signal: controller.signal }).then(
      (products) => setState({ status: 'loaded', products: Array.isArray(products) ? products : [] }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        setState({ status: 'failed', message: error instanceof Error ? error.message : String(error) });
      },
    );
    return () => controller.abort();
  }, []);

  return state;
}
