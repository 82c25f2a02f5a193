import { LoadingBox, MessageBox } from '@shop/ui';
import type { ReactNode } from 'react';
import shared from './admin.module.css';
import { Pagination } from './list-controls';
import type { PagedList } from './use-paged-list';

/** A column's header text, or that of a column of numbers. */
export type Column = string | { number: string };

export interface PagedTableProps<T> {
  list: Pick<PagedList<T>, 'state' | 'position' | 'go'>;
  /** What the rows are, plural ('orders'): the empty message and the pager say it. */
  noun: string;
  /** The table region's accessible name ('Orders'). */
  label: string;
  /** The column headers, in order; a number column's header is right-aligned, as its cells are (`shared.number`). */
  columns: readonly Column[];
  /** The rows of this page. */
  rows: (items: T[]) => ReactNode;
}

/**
 * An admin list as every admin screen shows it (docs/product/screens.md, "Admin lists"): a spinner while
 * loading, the danger alert on failure, a message when nothing matches, else a scrollable table marked busy
 * while it refreshes in place, and the pager under it.
 */
export function PagedTable<T>({
  list: { state, position, go },
  noun,
  label,
  columns,
  rows,
}: PagedTableProps<T>) {
  if (state.status === 'loading') return <LoadingBox />;
  if (state.status === 'failed') return <MessageBox variant="danger">{state.message}</MessageBox>;
  if (state.items.length === 0) {
    return <MessageBox>{position.q ? `No ${noun} match “${position.q}”.` : `No ${noun} yet.`}</MessageBox>;
  }
  return (
    <>
      <div className={shared['tableFrame']} role="region" aria-label={label} tabIndex={0}>
        <table className={shared['table']} aria-busy={state.refreshing}>
          <thead>
            <tr>
              {columns.map((column) =>
                typeof column === 'string' ? (
                  <th key={column} scope="col">
                    {column}
                  </th>
                ) : (
                  <th key={column.number} scope="col" className={shared['number']}>
                    {column.number}
                  </th>
                ),
              )}
            </tr>
          </thead>
          <tbody>{rows(state.items)}</tbody>
        </table>
      </div>
      <Pagination
        page={position.page}
        pageCount={state.pageCount}
        total={state.total}
        noun={noun}
        onPage={(page) => go({ q: position.q, page })}
      />
    </>
  );
}
