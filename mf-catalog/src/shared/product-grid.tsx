import type { Product } from '@shop/contracts';
import styles from './product-grid.module.css';
import { ProductCard } from './product-card';

/** How many cards the widest grid shows in its first row (spec §2: 4 columns on large screens). */
const FIRST_ROW = 4;

/**
 * How wide a card's picture is drawn, per breakpoint of product-grid.module.css: the shell's main
 * column (at most 1320px, 1rem padding each side) split into 1–4 columns with 1rem gaps. The
 * browser picks the smallest variant of the `srcset` that covers this at the screen's density.
 */
export const CARD_IMAGE_SIZES = [
  '(min-width: 1320px) 310px',
  '(min-width: 992px) calc((100vw - 80px) / 4)',
  '(min-width: 768px) calc((100vw - 64px) / 3)',
  '(min-width: 576px) calc((100vw - 48px) / 2)',
  'calc(100vw - 32px)',
].join(', ');

/** The grid of product cards: 1 column on extra-small screens, 2 small, 3 medium, 4 large (spec §2 "Home"). */
export function ProductGrid({ products }: { products: readonly Product[] }) {
  return (
    <ul className={styles['grid']} aria-label="Products">
      {products.map((product, index) => (
        <li key={product._id} className={styles['cell']}>
          <ProductCard product={product} eager={index < FIRST_ROW} imageSizes={CARD_IMAGE_SIZES} />
        </li>
      ))}
    </ul>
  );
}
