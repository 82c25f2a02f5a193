import type { Order } from '@shop/contracts';
import { formatPrice } from '@shop/state';
import styles from './all-orders-page.module.css';

/**
 * The ORDER ITEMS cell: a disclosure listing each line as "name, quantity x price"
 * (docs/product/screens.md, "All Orders").
 */
export function OrderItemsMenu({ order, currency }: { order: Order; currency: string }) {
  const count = order.orderItems.reduce((sum, item) => sum + item.quantity, 0);
  return (
    <details className={styles['items']}>
      <summary>
        {count} {count === 1 ? 'item' : 'items'}
        <span className={styles['orderId']}>Order {order._id}</span>
      </summary>
      <ul>
        {order.orderItems.map((item) => (
          <li key={item._id}>
            {item.name}, {item.quantity} x {formatPrice(item.price, currency)}
          </li>
        ))}
      </ul>
    </details>
  );
}
