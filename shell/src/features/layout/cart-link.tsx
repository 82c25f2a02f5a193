import { cartQuantityAtom } from '@shop/state';
import { VisuallyHidden, useHydrated } from '@shop/ui';
import { useAtomValue } from 'jotai';
import { Link } from 'react-router-dom';
import styles from './cart-link.module.css';
import topBar from './top-bar.module.css';

/** Link to /cart with a badge of the total quantity in the cart. */
export function CartLink() {
  const stored = useAtomValue(cartQuantityAtom);
  // The stored cart is the browser's: a server-rendered page shows it once hydrated.
  const quantity = useHydrated() ? stored : 0;
  return (
    // The visible words are the accessible name ('Cart 3 items'), so voice control users can say what they see.
    <Link to="/cart" className={topBar['barButton']}>
      <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
        <path
          fill="currentColor"
          d="M7 18a2 2 0 1 0 0 4 2 2 0 0 0 0-4Zm10 0a2 2 0 1 0 0 4 2 2 0 0 0 0-4ZM3 2h2.3l.9 2H21l-3.4 8.1A2 2 0 0 1 15.8 13H8.1l-1.1 2H19v2H7a2 2 0 0 1-1.75-2.97L6.6 11.6 3.7 4H3V2Z"
        />
      </svg>
      <span>Cart</span>
      {quantity > 0 && (
        <>
          {' '}
          <span className={styles['badge']} data-testid="cart-badge">
            {quantity}
          </span>{' '}
          <VisuallyHidden>{quantity === 1 ? 'item' : 'items'}</VisuallyHidden>
        </>
      )}
    </Link>
  );
}
