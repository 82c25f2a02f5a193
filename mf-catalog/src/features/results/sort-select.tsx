import type { ProductSort } from '@shop/contracts';
import { useHydrated } from '@shop/ui';
import styles from './results-page.module.css';

const SORT_LABELS: Record<ProductSort, string> = {
  newest: 'Newest arrivals',
  'price-asc': 'Price: low to high',
  'price-desc': 'Price: high to low',
  rating: 'Customer rating',
  name: 'Name',
};

/**
 * The order of the results; choosing one shows its first page. On a server-rendered page it says it cannot
 * be used until the code has taken the page over: a choice made before would show without taking effect.
 */
export function SortSelect({ sort, onChange }: { sort: ProductSort; onChange: (sort: ProductSort) => void }) {
  const ready = useHydrated();
  return (
    <label className={styles['sort']}>
      <span>Sort by</span>
      <select
        value={sort}
        disabled={!ready}
        onChange={(event) => onChange(event.target.value as ProductSort)}
      >
        {Object.entries(SORT_LABELS).map(([value, label]) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
      </select>
    </label>
  );
}
