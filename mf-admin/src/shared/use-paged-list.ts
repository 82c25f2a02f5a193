import { type PagedApiGetState, usePagedApiGet } from '@shop/ui';
import { useCallback, useEffect } from 'react';
import { useSearchParams } from 'react-router-dom';

/** Rows per page of every admin list. */
export const PAGE_SIZE = 10;

/** The list's search text and page, as the screen's URL holds them (`?q=…&page=…`). */
export interface ListPosition {
  q: string;
  page: number;
}

export interface PagedList<T> {
  state: PagedApiGetState<T>;
  position: ListPosition;
  /** Goes to the search's first page (a new search) or to another page of it. */
  go: (next: Partial<ListPosition>, options?: { replace?: boolean }) => void;
  /** Fetches the current page again in place, keeping the rows on screen until the answer arrives. */
  reload: () => void;
}

function readPosition(params: URLSearchParams): ListPosition {
  const page = Number(params.get('page'));
  return { q: params.get('q') ?? '', page: Number.isSafeInteger(page) && page >= 1 ? page : 1 };
}

/**
 * One page of a server-side list: the search and the page live in the URL (so Back, a reload and a
 * shared link keep them); `pathFor` turns them into the list endpoint's own parameter names, and
 * the total comes from `X-Total-Count`.
 */
export function usePagedList<T>(pathFor: (position: ListPosition) => string): PagedList<T> {
  const [params, setParams] = useSearchParams();
  const position = readPosition(params);
  const path = pathFor(position);
  const state = usePagedApiGet<T>(path, PAGE_SIZE);

  const go = useCallback(
    (next: Partial<ListPosition>, options: { replace?: boolean } = {}) => {
      setParams((current) => {
        const merged = { ...readPosition(current), page: 1, ...next };
        const updated = new URLSearchParams(current);
        if (merged.q.trim()) updated.set('q', merged.q.trim());
        else updated.delete('q');
        if (merged.page > 1) updated.set('page', String(merged.page));
        else updated.delete('page');
        return updated;
      }, options);
    },
    [setParams],
  );

  // After the last row of the last page was deleted, that page is gone: show the one before it.
  const emptiedPage =
    state.status === 'loaded' && state.items.length === 0 && position.page > state.pageCount;
  const lastPage = state.status === 'loaded' ? state.pageCount : 1;
  useEffect(() => {
    if (emptiedPage) go({ q: position.q, page: lastPage }, { replace: true });
  }, [emptiedPage, go, lastPage, position.q]);

  return { state, position, go, reload: state.reload };
}
