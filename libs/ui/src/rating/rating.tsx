import { starFills } from '@shop/state';
import styles from './rating.module.css';

export interface RatingProps {
  /** 0 to 5, drawn in half steps. */
  rating: number;
  /** Shown after the stars as "N reviews" when given. */
  numReviews?: number;
}

/** Five stars in half steps (docs/product/rules.md, "Display") with an optional review count. */
export function Rating({ rating, numReviews }: RatingProps) {
  const label = `Rated ${rating} out of 5`;
  return (
    <div className={styles['rating']}>
      <span role="img" aria-label={label} className={styles['stars']}>
        {starFills(rating).map((fill, index) => (
          <span key={index} data-fill={fill} className={styles[fill]}>
            ★
          </span>
        ))}
      </span>
      {numReviews !== undefined && (
        <span className={styles['reviews']}>
          {numReviews} {numReviews === 1 ? 'review' : 'reviews'}
        </span>
      )}
    </div>
  );
}
