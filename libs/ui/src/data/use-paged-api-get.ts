import { totalCount } from '@shop/state';
import { type ApiGetFailure, loadedList, useApiGet } from './use-api-get';

/** One page of a server-side list: its rows, the total of every match (`X-Total-Count`) and the page count. */
export type PagedApiGetState<T> =
  | { status: 'loading' }
  | ApiGetFailure
  | { status: 'loaded'; items: T[]; total: number; pageCount: number; refreshing: boolean };

/**
 * `useApiGet` of one page of a list endpoint: another page (another path) shows loading; `reload` fetches
 * the same page again with its rows kept on screen meanwhile (`refreshing`).
 */
export function usePagedApiGet<T>(
  path: string,
  pageSize: number,
): PagedApiGetState<T> & { reload: () => void } {
  const list = useApiGet<T[]>(path);
  const { reload } = list;
  if (list.status === 'loading') return { status: 'loading', reload };
  if (list.status === 'failed') return list;
  const items = loadedList(list);
  const total = totalCount(list.response.headers, items.length);
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  return { status: 'loaded', items, total, pageCount, refreshing: list.refreshing, reload };
}
