import { Link } from 'react-router-dom';
import styles from './results-page.module.css';

/** The pages to offer: the first, the last, and the current one with its neighbours; null marks a gap. */
function pageWindow(page: number, pageCount: number): (number | null)[] {
  const shown = [...new Set([1, page - 1, page, page + 1, pageCount])]
    .filter((n) => n >= 1 && n <= pageCount)
    .sort((a, b) => a - b);
  return shown.flatMap((n, index) => (index > 0 && n - shown[index - 1]! > 1 ? [null, n] : [n]));
}

export interface PaginationProps {
  page: number;
  pageCount: number;
  hrefFor: (page: number) => string;
}

/** Links to the pages of the results (nothing when there is only one). */
export function Pagination({ page, pageCount, hrefFor }: PaginationProps) {
  if (pageCount <= 1) return null;
  return (
    <nav aria-label="Pagination" className={styles['pagination']}>
      <ul>
        {page > 1 && (
          <li>
            <Link to={hrefFor(page - 1)} rel="prev">
              Previous
            </Link>
          </li>
        )}
        {pageWindow(page, pageCount).map((n, index) =>
          n === null ? (
            <li key={`gap-${index}`} aria-hidden="true">
              …
            </li>
          ) : (
            <li key={n}>
              <Link to={hrefFor(n)} aria-label={`Page ${n}`} aria-current={n === page ? 'page' : undefined}>
                {n}
              </Link>
            </li>
          ),
        )}
        {page < pageCount && (
          <li>
            <Link to={hrefFor(page + 1)} rel="next">
              Next
            </Link>
          </li>
        )}
      </ul>
    </nav>
  );
}
