import { siteSettingsAtom } from '@shop/state';
import { LoadingBox, MessageBox } from '@shop/ui';
import { useAtomValue } from 'jotai';
import { ProductGrid } from '../../shared/product-grid';
import styles from './home-page.module.css';
import { useProducts } from './use-products';

/** Home: the grid of every product (spec §2 "Home"); the page title is the site name. */
export default function HomePage() {
  const { websiteName } = useAtomValue(siteSettingsAtom);
  const products = useProducts();

  return (
    <section className={styles['page']}>
      <title>{websiteName}</title>
      <h1 className={styles['heading']}>Featured Products</h1>
      {products.status === 'loading' && <LoadingBox />}
      {products.status === 'failed' && <MessageBox variant="danger">{products.message}</MessageBox>}
      {products.status === 'loaded' &&
        (products.products.length === 0 ? (
          <MessageBox>No products yet.</MessageBox>
        ) : (
          <ProductGrid products={products.products} />
        ))}
    </section>
  );
}
