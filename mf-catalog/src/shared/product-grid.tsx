import type { Product } from '@shop/contracts';
import { CARD_IMAGE_SIZES, PRODUCT_GRID_FIRST_ROW } from '@shop/ui';
import styles from './product-grid.module.css';
import { ProductCard } from './product-card';

/**
 * The grid of product cards: 1 column on extra-small screens, 2 small, 3 medium, 4 large
 * (docs/product/screens.md, "Home").
 */
export function ProductGrid({ products }: { products: readonly Product[] }) {
  return (
    <ul className={styles['grid']} aria-label="Products">
      {products.map((product, index) => (
        <li key={product._id} className={styles['cell']}>
          <ProductCard
            product={product}
            eager={index < PRODUCT_GRID_FIRST_ROW}
            imageSizes={CARD_IMAGE_SIZES}
          />
        </li>
      ))}
    </ul>
  );
}
