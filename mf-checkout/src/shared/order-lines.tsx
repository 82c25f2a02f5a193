import { formatPrice } from '@shop/state';
import { Link } from 'react-router-dom';
import { LineThumb } from './line-thumb';
import styles from './order-lines.module.css';

interface OrderLine {
  _id: string;
  name: string;
  /** The first product image, or ''. */
  image: string;
  price: number;
  quantity: number;
  /** Links the name to the product page when known (cart lines know it, stored orders do not). */
  slug?: string;
}

/** The items of an order or of the cart being ordered: image, name, quantity × price = line amount. */
export function OrderLines({ lines, currency }: { lines: readonly OrderLine[]; currency: string }) {
  return (
    <ul className={styles['lines']} aria-label="Order items">
      {lines.map((line) => (
        <li key={line._id} className={styles['line']}>
          <LineThumb image={line.image} name={line.name} size={56} className={styles['thumb']} lazy />
          <span className={styles['name']}>
            {line.slug ? (
              <Link to={`/product/${encodeURIComponent(line.slug)}`}>{line.name}</Link>
            ) : (
              line.name
            )}
          </span>
          <span className={styles['amount']}>
            {line.quantity} x {formatPrice(line.price, currency)} ={' '}
            {formatPrice(line.price * line.quantity, currency)}
          </span>
        </li>
      ))}
    </ul>
  );
}
