import type { Product } from '@shop/contracts';
import { formatPrice, siteSettingsAtom, truncateWords } from '@shop/state';
import { Rating } from '@shop/ui';
import { useAtomValue } from 'jotai';
import { Link } from 'react-router-dom';
import styles from './product-card.module.css';
import { useAddToCart } from './use-add-to-cart';

const DESCRIPTION_WORDS = 10;

export interface ProductCardProps {
  product: Product;
  /** Cards of the first row are in view at once: their picture loads eagerly, the others when scrolled to. */
  eager?: boolean;
}

/** One product of a grid: image, name, short description, rating, price and add-to-cart (which stays on the page). */
export function ProductCard({ product, eager = false }: ProductCardProps) {
  const { currency } = useAtomValue(siteSettingsAtom);
  const { add, adding } = useAddToCart();
  const productUrl = `/product/${encodeURIComponent(product.slug)}`;
  const image = product.image[0];

  return (
    <article className={styles['card']}>
      {/* The name below is the link screen readers and keyboards use; the picture is a second, mouse-only target. */}
      <Link to={productUrl} className={styles['imageLink']} tabIndex={-1} aria-hidden="true">
        {image ? (
          <img
            src={image}
            alt={product.name}
            className={styles['image']}
            width={640}
            height={480}
            loading={eager ? 'eager' : 'lazy'}
          />
        ) : (
          <span className={styles['noImage']}>No image</span>
        )}
      </Link>
      <div className={styles['body']}>
        <h2 className={styles['name']}>
          <Link to={productUrl}>{product.name}</Link>
        </h2>
        <p className={styles['description']}>{truncateWords(product.description, DESCRIPTION_WORDS)}</p>
        <Rating rating={product.rating} numReviews={product.numReviews} />
        <p className={styles['price']}>{formatPrice(product.price, currency)}</p>
        {product.countInStock === 0 ? (
          <button type="button" className={styles['button']} disabled>
            Sold Out
          </button>
        ) : (
          <button
            type="button"
            className={styles['button']}
            aria-busy={adding}
            onClick={() => void add(product._id)}
          >
            Add to Cart
          </button>
        )}
      </div>
    </article>
  );
}
