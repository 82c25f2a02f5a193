import type { OrderPrices } from '@shop/contracts';
import { formatPrice } from '@shop/state';
import styles from './order-summary.module.css';

/**
 * The Order Summary rows (docs/product/screens.md, "Preview Order"): Items, Tax, Bitcoin Discount (only
 * when positive), Order Total.
 */
export function OrderSummary({ prices, currency }: { prices: OrderPrices; currency: string }) {
  return (
    <dl className={styles['summary']}>
      <div className={styles['row']}>
        <dt>Items</dt>
        <dd>{formatPrice(prices.itemsPrice, currency)}</dd>
      </div>
      <div className={styles['row']}>
        <dt>Tax</dt>
        <dd>{formatPrice(prices.taxPrice, currency)}</dd>
      </div>
      {prices.discount > 0 && (
        <div className={styles['row']}>
          <dt>Bitcoin Discount</dt>
          <dd>{formatPrice(-prices.discount, currency)}</dd>
        </div>
      )}
      <div className={`${styles['row']} ${styles['total']}`}>
        <dt>Order Total</dt>
        <dd>{formatPrice(prices.totalPrice, currency)}</dd>
      </div>
    </dl>
  );
}
