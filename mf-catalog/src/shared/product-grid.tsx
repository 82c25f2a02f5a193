import type { Product } from '@shop/contracts';
import styles from './product-grid.module.css';
import { ProductCard } from './product-card';

/** How many cards the widest grid shows in its first row (spec §2: 4 columns on large screens). */
const FIRST_ROW = 4;

/** The grid of product cards: 1 column on extra-small screens, 2 small, 3 medium, 4 large (spec §2 "Home"). */
export function ProductGrid({ products }: { products: readonly Product[] }) {
  return (
    <ul className={styles['grid']} aria-label="Products">
      {products.map((product, index) => (
        <li key={product._id} className={styles['cell']}>
          <ProductCard product={product} eager={index < FIRST_ROW} />
        </li>
      ))}
    </ul>
  );
}
