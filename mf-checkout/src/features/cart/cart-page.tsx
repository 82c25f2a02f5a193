import {
  CART_MESSAGES,
  cartItemsAtom,
  cartQuantityAtom,
  cartPricesAtom,
  formatPrice,
  removeFromCartAtom,
  setCartQuantityAtom,
  siteSettingsAtom,
} from '@shop/state';
import { Button, MessageBox } from '@shop/ui';
import { useAtomValue, useSetAtom } from 'jotai';
import { Link, useNavigate } from 'react-router-dom';
import { toast } from 'react-toastify';
import shared from '../../shared/checkout.module.css';
import { LineThumb } from '../../shared/line-thumb';
import styles from './cart-page.module.css';

/**
 * Shopping Cart (docs/product/screens.md, "Cart"): lines with quantity controls, subtotal, proceed to
 * checkout.
 */
export default function CartPage() {
  const cartItems = useAtomValue(cartItemsAtom);
  const quantity = useAtomValue(cartQuantityAtom);
  const { itemsPrice } = useAtomValue(cartPricesAtom);
  const { currency } = useAtomValue(siteSettingsAtom);
  const setQuantity = useSetAtom(setCartQuantityAtom);
  const remove = useSetAtom(removeFromCartAtom);
  const navigate = useNavigate();

  const changeQuantity = (id: string, next: number) => {
    if (!setQuantity(id, next).ok) toast.warning(CART_MESSAGES.outOfStock);
  };

  return (
    <section className={shared['page']}>
      <title>Shopping Cart</title>
      <h1>Shopping Cart</h1>
      <div className={styles['layout']}>
        <div>
          {cartItems.length === 0 ? (
            <MessageBox>
              Cart is empty. <Link to="/">Go Shopping</Link>
            </MessageBox>
          ) : (
            <ul className={styles['lines']} aria-label="Cart items">
              {cartItems.map((item) => (
                <li key={item._id} className={styles['line']}>
                  <LineThumb image={item.image} name={item.name} size={64} className={styles['thumb']} />
                  <Link to={`/product/${encodeURIComponent(item.slug)}`} className={styles['name']}>
                    {item.name}
                  </Link>
                  <span className={styles['quantity']}>
                    <button
                      type="button"
                      aria-label={`One less ${item.name}`}
                      disabled={item.quantity === 1}
                      onClick={() => changeQuantity(item._id, item.quantity - 1)}
                    >
                      −
                    </button>
                    <span aria-label="Quantity">{item.quantity}</span>
                    <button
                      type="button"
                      aria-label={`One more ${item.name}`}
                      disabled={item.quantity >= item.countInStock}
                      onClick={() => changeQuantity(item._id, item.quantity + 1)}
                    >
                      +
                    </button>
                  </span>
                  <span className={styles['price']}>{formatPrice(item.price, currency)}</span>
                  <button
                    type="button"
                    className={styles['remove']}
                    aria-label={`Remove ${item.name}`}
                    onClick={() => remove(item._id)}
                  >
                    Remove
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
        <aside className={styles['summary']}>
          <h2>
            Subtotal ({quantity} {quantity === 1 ? 'item' : 'items'}) : {formatPrice(itemsPrice, currency)}
          </h2>
          <Button
            className={shared['wide']}
            disabled={cartItems.length === 0}
            onClick={() => navigate('/signin?redirect=/shipping')}
          >
            Proceed to Checkout
          </Button>
        </aside>
      </div>
    </section>
  );
}
