import type { ReactNode } from 'react';
import { AdminScreen } from './admin-screen';
import shared from './admin.module.css';
import { SearchForm } from './list-controls';
import { PagedTable, type PagedTableProps } from './paged-table';

export interface ListScreenProps<T> extends PagedTableProps<T> {
  /** The screen's title and heading, e.g. 'All Products'. */
  title: string;
  /** Says what the search text is matched against. */
  searchHint: string;
  /** Between the heading and the search box. */
  note?: ReactNode;
  /** Beside the search box, e.g. a link that creates a row. */
  actions?: ReactNode;
  /** After the table: the screen's dialogs. */
  children?: ReactNode;
}

/**
 * An admin list screen (docs/product/screens.md, "Admin lists"): its heading, the search box over the list
 * (named after the rows' noun), the paged table, then its dialogs.
 */
export function ListScreen<T>({ title, searchHint, note, actions, children, ...table }: ListScreenProps<T>) {
  const { position, go } = table.list;
  return (
    <AdminScreen title={title}>
      {note}
      <div className={shared['toolbar']}>
        <SearchForm
          key={position.q}
          subject={table.noun}
          value={position.q}
          hint={searchHint}
          onSearch={(q) => go({ q })}
        />
        {actions}
      </div>
      <PagedTable {...table} />
      {children}
    </AdminScreen>
  );
}
