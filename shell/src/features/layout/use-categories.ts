import { PRODUCTS_API } from '@shop/contracts';
import { loadedList, useApiGet } from '@shop/ui';
import { useState } from 'react';

type CategoriesState =
  | { status: 'idle' | 'loading' }
  | { status: 'failed'; message: string }
  | { status: 'loaded'; categories: string[] };

/**
 * Category names (`GET /api/products/categories`). `load` starts the request unless it is under way or done,
 * so each opening of the menu after a failure tries again.
 */
export function useCategories(): { categories: CategoriesState; load: () => void } {
  const [wanted, setWanted] = useState(false);
  const answer = useApiGet<string[]>(wanted ? `${PRODUCTS_API}/categories` : null);

  const load = () => {
    if (!wanted) setWanted(true);
    else if (answer.status === 'failed') answer.reload();
  };

  const categories: CategoriesState = !wanted
    ? { status: 'idle' }
    : answer.status === 'loaded'
      ? { status: 'loaded', categories: loadedList(answer) }
      : answer;
  return { categories, load };
}
