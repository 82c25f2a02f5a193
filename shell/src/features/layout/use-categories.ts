import { apiFetch } from '@shop/state';
import { useState } from 'react';

export type CategoriesState =
  | { status: 'idle' | 'loading' }
  | { status: 'failed'; message: string }
  | { status: 'loaded'; categories: string[] };

/**
 * Category names (`GET /api/products/categories`). `load` starts the request unless it is under way or done,
 * so each opening of the menu after a failure tries again.
 */
export function useCategories(): { categories: CategoriesState; load: () => void } {
  const [categories, setCategories] = useState<CategoriesState>({ status: 'idle' });

  const load = () => {
    if (categories.status === 'loading' || categories.status === 'loaded') return;
    setCategories({ status: 'loading' });
    apiFetch<string[]>('/api/products/categories').then(
      (names) => setCategories({ status: 'loaded', categories: Array.isArray(names) ? names : [] }),
      (error: unknown) =>
        setCategories({ status: 'failed', message: error instanceof Error ? error.message : String(error) }),
    );
  };

  return { categories, load };
}
