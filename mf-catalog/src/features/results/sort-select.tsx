import type { ProductSort } from '@shop/contracts';
import styles from './results-page.module.css';

const SORT_LABELS: Record<ProductSort, string> = {
  newest: 'Newest arrivals',
  'price-asc': 'Price: low to high',
  'price-desc': 'Price: high to low',
  rating: 'Customer rating',
  name: 'Name',
};

/** The order of the results; choosing one shows its first page. */
export function SortSelect({ sort, onChange }: { sort: ProductSort; onChange: (sort: ProductSort) => void }) {
  return (
    <label className={styles['sort']}>
      <span>Sort by</span>
      <select value={sort} onChange={(event) => onChange(event.target.value as ProductSort)}>
        {Object.entries(SORT_LABELS).map(([value, label]) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
      </select>
    </label>
  );
}
