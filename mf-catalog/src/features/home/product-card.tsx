import type { Product } from '@shop/contracts';
import { CART_MESSAGES, addToCartAtom, formatPrice, siteSettingsAtom, truncateWords } from '@shop/state';
import { Rating } from '@shop/ui';
import { useAtomValue, useSetAtom } from 'jotai';
import { Link } from 'react-router-dom';
import { toast } from 'react-toastify';
import styles from './product-card.module.css';

const DESCRIPTION_WORDS = 10;

/** One product of the grid: image, name, short description, rating, price and add-to-cart. */
export function ProductCard({ product }: { product: Product }) {
  const { currency } = useAtomValue(siteSettingsAtom);
  const addToCart = useSetAtom(addToCartAtom);
  const productUrl = `/product/${encodeURIComponent(product.slug)}`;
  const image = product.image[0];

  const onAddToCart = () => {
    const change = addToCart(product);
    if (change.ok) toast.success(CART_MESSAGES.added);
    else toast.warning(CART_MESSAGES.outOfStock);
  };

  return (
    <article className={styles['card']}>
      {/* The name below is the link screen readers and keyboards use; the picture is a second, mouse-only target. */}
      <Link to={productUrl} className={styles['imageLink']} tabIndex={-1} aria-hidden="true">
        {image ? (
          <img src={image} alt={product.name} className={styles['image']} loading="lazy" />
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
          <button type="button" className={styles['button']} onClick={onAddToCart}>
            Add to Cart
          </button>
        )}
      </div>
    </article>
  );
}
