import { Button } from '@shop/ui';
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { useSearchParams } from 'react-router-dom';
import styles from './admin.module.css';

export interface SearchFormProps {
  /** What is searched, e.g. 'products': the box is named 'Search products'. */
  subject: string;
  /** The search in effect (from the URL); give the form `key={value}` so Back/Forward reset the box. */
  value: string;
  onSearch: (text: string) => void;
  /** Says what the text is matched against, under the box. */
  hint: string;
}

/** The search box of an admin list; the search runs on the server when it is submitted. */
export function SearchForm({ subject, value, onSearch, hint }: SearchFormProps) {
  const [text, setText] = useState(value);
  const hintId = useId();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSearch(text);
  };

  return (
    <form role="search" aria-label={`Search ${subject}`} className={styles['search']} onSubmit={submit}>
      <input
        type="search"
        className={styles['input']}
        aria-label={`Search ${subject}`}
        aria-describedby={hintId}
        placeholder={`Search ${subject}`}
        value={text}
        maxLength={100}
        onChange={(event) => setText(event.target.value)}
      />
      <Button variant="secondary" type="submit">
        Search
      </Button>
      <p id={hintId} className={styles['hint']}>
        {hint}
      </p>
    </form>
  );
}

export interface PaginationProps {
  page: number;
  pageCount: number;
  total: number;
  /** The rows' noun, e.g. 'products'. */
  noun: string;
  onPage: (page: number) => void;
}

/** How many rows match and which page is shown, with Previous and Next. */
export function Pagination({ page, pageCount, total, noun, onPage }: PaginationProps) {
  return (
    <nav className={styles['pagination']} aria-label={`Pages of ${noun}`}>
      <Button variant="secondary" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </Button>
      <span aria-live="polite">
        Page {page} of {pageCount} ({total} {noun})
      </span>
      <Button variant="secondary" disabled={page >= pageCount} onClick={() => onPage(page + 1)}>
        Next
      </Button>
    </nav>
  );
}

/** A list's own filter beside the search box: its label around the control (a check box, a select). */
export function ListFilter({ children }: { children: ReactNode }) {
  return <label className={styles['filter']}>{children}</label>;
}

/**
 * A list's own filters, kept in the URL beside its search and page: `setFilter` sets one (an empty value
 * removes it) and goes back to the first page.
 */
export function useListFilters<Name extends string>() {
  const [params, setParams] = useSearchParams();
  const setFilter = (name: Name, value: string) =>
    setParams((current) => {
      const next = new URLSearchParams(current);
      if (value) next.set(name, value);
      else next.delete(name);
      next.delete('page');
      return next;
    });
  return { params, setFilter };
}
