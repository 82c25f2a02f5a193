import { apiRequest, totalCount } from '@shop/state';
import { useCallback, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { errorMessage, isAbort } from './error-message';

/** Rows per page of every admin list. */
export const PAGE_SIZE = 10;

/** The list's search text and page, as the screen's URL holds them (`?q=…&page=…`). */
export interface ListPosition {
  q: string;
  page: number;
}

type Outcome<T> = { status: 'failed'; message: string } | { status: 'loaded'; items: T[]; total: number };

export type PagedListState<T> =
  | { status: 'loading' }
  | { status: 'failed'; message: string }
  | { status: 'loaded'; items: T[]; total: number; pageCount: number; refreshing: boolean };

export interface PagedList<T> {
  state: PagedListState<T>;
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
  const [version, setVersion] = useState(0);
  const [result, setResult] = useState<{ path: string; version: number; outcome: Outcome<T> }>();

  useEffect(() => {
    const controller = new AbortController();
    apiRequest<T[]>(path, { signal: controller.signal }).then(
      ({ data, headers }) => {
        const items = Array.isArray(data) ? data : [];
        setResult({
          path,
          version,
          outcome: { status: 'loaded', items, total: totalCount(headers, items.length) },
        });
      },
      (error: unknown) => {
        if (isAbort(error, controller.signal)) return;
        setResult({ path, version, outcome: { status: 'failed', message: errorMessage(error) } });
      },
    );
    return () => controller.abort();
  }, [path, version]);

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

  const reload = useCallback(() => setVersion((current) => current + 1), []);

  // A new search or page shows the spinner; a reload of the same page keeps its rows meanwhile.
  let state: PagedListState<T>;
  if (!result || result.path !== path) state = { status: 'loading' };
  else if (result.outcome.status === 'failed') state = result.outcome;
  else {
    const { items, total } = result.outcome;
    const pageCount = Math.max(1, Math.ceil(total / PAGE_SIZE));
    state = { status: 'loaded', items, total, pageCount, refreshing: result.version !== version };
  }

  // After the last row of the last page was deleted, that page is gone: show the one before it.
  const emptiedPage =
    state.status === 'loaded' && state.items.length === 0 && position.page > state.pageCount;
  const lastPage = state.status === 'loaded' ? state.pageCount : 1;
  useEffect(() => {
    if (emptiedPage) go({ q: position.q, page: lastPage }, { replace: true });
  }, [emptiedPage, go, lastPage, position.q]);

  return { state, position, go, reload };
}
