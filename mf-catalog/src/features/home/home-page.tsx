import { PRODUCTS_API, type Product } from '@shop/contracts';
import { siteSettingsAtom } from '@shop/state';
import { LoadingBox, MessageBox, loadedList, useApiGet } from '@shop/ui';
import { useAtomValue } from 'jotai';
import { PageMetadata } from '../../shared/metadata/page-metadata';
import { ProductGrid } from '../../shared/product-grid';
import styles from './home-page.module.css';

/** Home: the grid of every product (docs/product/screens.md, "Home"); the page title is the site name. */
export default function HomePage() {
  const { websiteName } = useAtomValue(siteSettingsAtom);
  // The same path the shell's first script prefetches for this screen (PRODUCTS_API): its answer is taken over.
  const answer = useApiGet<Product[]>(PRODUCTS_API);
  const products = loadedList(answer);

  return (
    <section className={styles['page']}>
      <title>{websiteName}</title>
      <PageMetadata
        title={websiteName}
        description={`${websiteName}: firearms and accessories.`}
        canonicalPath="/"
        subject="site"
      />
      <h1 className={styles['heading']}>Featured Products</h1>
      {answer.status === 'loading' && <LoadingBox />}
      {answer.status === 'failed' && <MessageBox variant="danger">{answer.message}</MessageBox>}
      {answer.status === 'loaded' &&
        (products.length === 0 ? (
          <MessageBox>No products yet.</MessageBox>
        ) : (
          <ProductGrid products={products} />
        ))}
    </section>
  );
}
