import type { FacetCount } from '@shop/contracts';
import { Link } from 'react-router-dom';
import styles from './results-page.module.css';

export interface FacetFilterProps {
  title: string;
  /** The label of the link that clears this filter ('All brands'). */
  anyLabel: string;
  anyHref: string;
  /** '' when no value is chosen. */
  selected: string;
  options: readonly FacetCount[];
  hrefFor: (value: string) => string;
}

/**
 * One filter as a list of links with counts: each choice is a real URL, so it can be opened in a new tab,
 * shared, and undone with Back. The chosen value stays listed even when nothing else matches it.
 */
export function FacetFilter({ title, anyLabel, anyHref, selected, options, hrefFor }: FacetFilterProps) {
  // One filter of each title on a page: an id from the title is unique, and the same wherever the screen is
  // rendered (the server's render and the browser's hydration sit at different depths, so useId's differ).
  const headingId = `filter-${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
  const listed =
    selected && !options.some((option) => option.value === selected)
      ? [...options, { value: selected, count: 0 }]
      : options;

  return (
    <section className={styles['filter']} aria-labelledby={headingId}>
      <h2 id={headingId} className={styles['filterTitle']}>
        {title}
      </h2>
      <ul className={styles['chips']}>
        <li>
          <Link to={anyHref} className={styles['chip']} aria-current={selected === '' ? 'true' : undefined}>
            {anyLabel}
          </Link>
        </li>
        {listed.map((option) => (
          <li key={option.value}>
            <Link
              to={hrefFor(option.value)}
              className={styles['chip']}
              aria-current={option.value === selected ? 'true' : undefined}
            >
              {option.value} <span className={styles['count']}>({option.count})</span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
