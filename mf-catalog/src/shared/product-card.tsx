import { type Product, mediaSrcSet } from '@shop/contracts';
import { formatPrice, siteSettingsAtom, truncateWords } from '@shop/state';
import { Button, Rating } from '@shop/ui';
import { useAtomValue } from 'jotai';
import { Link } from 'react-router-dom';
import styles from './product-card.module.css';
import { useAddToCart } from './use-add-to-cart';

const DESCRIPTION_WORDS = 10;

export interface ProductCardProps {
  product: Product;
  /**
   * Cards of the first row are in view at once: their picture loads eagerly and first (it is what
   * the shopper waits for), the others when scrolled to.
   */
  eager?: boolean;
  /** The `sizes` of the picture: how wide the grid draws it at each breakpoint. */
  imageSizes?: string;
}

/** One product of a grid: image, name, short description, rating, price and add-to-cart (which stays on the page). */
export function ProductCard({ product, eager = false, imageSizes = '100vw' }: ProductCardProps) {
  const { currency } = useAtomValue(siteSettingsAtom);
  const { add, adding, ready } = useAddToCart();
  const productUrl = `/product/${encodeURIComponent(product.slug)}`;
  const image = product.image[0];
  // Our media service offers resized variants; a picture from anywhere else keeps its plain src.
  const srcSet = image ? mediaSrcSet(image) : undefined;

  return (
    <article className={styles['card']}>
      {/* The name below is the link screen readers and keyboards use; the picture is a second, mouse-only target. */}
      <Link to={productUrl} className={styles['imageLink']} tabIndex={-1} aria-hidden="true">
        {image ? (
          // width/height give the box its 4:3 shape before a byte arrives, so nothing below it moves.
          <img
            src={image}
            srcSet={srcSet}
            sizes={srcSet ? imageSizes : undefined}
            alt={product.name}
            className={styles['image']}
            width={640}
            height={480}
            loading={eager ? 'eager' : 'lazy'}
            fetchPriority={eager ? 'high' : undefined}
            decoding="async"
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
          <Button disabled>Sold Out</Button>
        ) : (
          <Button aria-busy={adding} disabled={!ready} onClick={() => void add(product._id)}>
            Add to Cart
          </Button>
        )}
      </div>
    </article>
  );
}
