import type { OrderStatus } from '@shop/contracts';
import styles from './order-page.module.css';

const TONE: Record<OrderStatus, string> = { Paid: 'good', Pending: 'info', 'Not paid': 'bad' };

/**
 * An order's payment status in its colour (docs/product/rules.md, "Order states"): Paid green, Pending
 * blue, Not paid red.
 */
export function OrderStatusBadge({ status }: { status: OrderStatus }) {
  return <span className={`${styles['badge']} ${styles[TONE[status]]}`}>{status}</span>;
}
