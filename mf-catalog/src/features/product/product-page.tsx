import { PRODUCT_MESSAGES, PRODUCT_SLUG_PATTERN, PRODUCTS_API, type Product } from '@shop/contracts';
import { formatPrice, siteSettingsAtom } from '@shop/state';
import { Button, LoadingBox, MessageBox, Rating, useApiGet, VisuallyHidden } from '@shop/ui';
import { useAtomValue } from 'jotai';
import { useNavigate, useParams } from 'react-router-dom';
import { useAddToCart } from '../../shared/use-add-to-cart';
import styles from './product-page.module.css';
import { PageMetadata, describeIn } from '../../shared/metadata/page-metadata';
import { ProductSlider } from './product-slider';

/**
 * `/product/{slug}` (docs/product/screens.md, "Product page"); a slug no product could have is not asked
 * for.
 */
export default function ProductPage() {
  const slug = useParams()['slug'] ?? '';
  if (!PRODUCT_SLUG_PATTERN.test(slug)) return <NotFound />;
  // Keyed by slug: going from one product to another starts afresh.
  return <ProductBySlug key={slug} slug={slug} />;
}

/**
 * The screen's level-one heading while there is no product to name (loading, not found, failed): not shown,
 * as the screen shows only the alert (docs/product/screens.md, "Product page"), but there for whoever moves
 * through the page by its headings.
 */
function UnnamedPageHeading() {
  return <VisuallyHidden as="h1">Product Page</VisuallyHidden>;
}

function NotFound() {
  return (
    <section className={styles['page']}>
      <title>{`Product Page ${PRODUCT_MESSAGES.notFound}`}</title>
      <PageMetadata title={PRODUCT_MESSAGES.notFound} noindex />
      <UnnamedPageHeading />
      <MessageBox variant="danger">{PRODUCT_MESSAGES.notFound}</MessageBox>
    </section>
  );
}

function ProductBySlug({ slug }: { slug: string }) {
  const product = useApiGet<Product>(`${PRODUCTS_API}/slug/${encodeURIComponent(slug)}`);

  if (product.status === 'loading') {
    return (
      <section className={styles['page']}>
        <title>Product Page</title>
        <UnnamedPageHeading />
        <LoadingBox />
      </section>
    );
  }
  if (product.status === 'failed') {
    return product.httpStatus === 404 ? (
      <NotFound />
    ) : (
      <section className={styles['page']}>
        <title>Product Page</title>
        <UnnamedPageHeading />
        <MessageBox variant="danger">{product.message}</MessageBox>
      </section>
    );
  }
  return <ProductDetails product={product.response.data} />;
}

function ProductDetails({ product }: { product: Product }) {
  const { currency } = useAtomValue(siteSettingsAtom);
  const { add, adding, ready } = useAddToCart();
  const navigate = useNavigate();
  const price = formatPrice(product.price, currency);
  const inStock = product.countInStock > 0;

  const onAddToCart = async () => {
    if (await add(product._id)) navigate('/cart');
  };

  return (
    <article className={`${styles['page']} ${styles['layout']}`}>
      <title>{`Product Page ${product.name}`}</title>
      <PageMetadata
        title={product.name}
        description={describeIn(product.description)}
        canonicalPath={`/product/${product.slug}`}
        image={product.image[0]}
        kind="product"
        subject={product}
      />
      <ProductSlider name={product.name} images={product.image} />
      <div className={styles['info']}>
        <h1 className={styles['name']}>{product.name}</h1>
        <Rating rating={product.rating} numReviews={product.numReviews} />
        <p className={styles['price']}>
          <span className={styles['label']}>Price:</span> {price}
        </p>
        <h2 className={styles['subheading']}>Description</h2>
        <p className={styles['description']}>{product.description}</p>
      </div>
      <aside className={styles['card']} aria-label="Purchase">
        <dl className={styles['facts']}>
          <div>
            <dt>Price:</dt>
            <dd>{price}</dd>
          </div>
          <div>
            <dt>Status:</dt>
            <dd>
              <span className={`${styles['badge']} ${inStock ? styles['inStock'] : styles['soldOut']}`}>
                {inStock ? 'In Stock' : 'Sold Out'}
              </span>
            </dd>
          </div>
        </dl>
        {inStock && (
          <Button aria-busy={adding} disabled={!ready} onClick={() => void onAddToCart()}>
            Add to Cart
          </Button>
        )}
      </aside>
    </article>
  );
}
