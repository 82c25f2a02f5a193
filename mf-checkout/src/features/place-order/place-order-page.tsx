import { type PaymentMethod, isPaymentMethod } from '@shop/contracts';
import {
  cartItemsAtom,
  cartPricesAtom,
  isShippingAddressComplete,
  paymentMethodAtom,
  shippingAddressAtom,
  siteSettingsAtom,
} from '@shop/state';
import { Button, MessageBox } from '@shop/ui';
import { useAtomValue } from 'jotai';
import { Link, Navigate } from 'react-router-dom';
import { CheckoutSteps } from '../../shared/checkout-steps';
import { Card } from '../../shared/card';
import shared from '../../shared/checkout.module.css';
import { OrderLines } from '../../shared/order-lines';
import { OrderSummary } from '../../shared/order-summary';
import { ShippingDetails } from '../../shared/shipping-details';
import { usePlaceOrder } from './use-place-order';

/**
 * Preview Order (docs/product/screens.md, "Preview Order"): the address, method and items with Edit links,
 * the amounts as the server will price them (`priceOrder` through the cart's prices), and Place Order.
 */
export default function PlaceOrderPage() {
  const shippingAddress = useAtomValue(shippingAddressAtom);
  const paymentMethod = useAtomValue(paymentMethodAtom);

  if (!isShippingAddressComplete(shippingAddress)) return <Navigate to="/shipping" replace />;
  // Anything the orders service would refuse (none chosen, the legacy 'PayPal') means choose again.
  if (!isPaymentMethod(paymentMethod)) return <Navigate to="/payment" replace />;
  return <PreviewOrder paymentMethod={paymentMethod} />;
}

function PreviewOrder({ paymentMethod }: { paymentMethod: PaymentMethod }) {
  const shippingAddress = useAtomValue(shippingAddressAtom);
  const cartItems = useAtomValue(cartItemsAtom);
  const prices = useAtomValue(cartPricesAtom);
  const { currency } = useAtomValue(siteSettingsAtom);
  const { placing, failure, placeOrder } = usePlaceOrder(paymentMethod);

  return (
    <section className={shared['page']}>
      <title>Preview Order</title>
      <CheckoutSteps current="Place Order" />
      <h1>Preview Order</h1>
      <div className={shared['columns']}>
        <div className={shared['stack']}>
          <Card id="preview-shipping" title="Shipping">
            <ShippingDetails to={shippingAddress} />
            <Link to="/shipping" aria-label="Edit shipping">
              Edit
            </Link>
          </Card>
          <Card id="preview-payment" title="Payment">
            <p>
              <strong>Method:</strong> {paymentMethod}
            </p>
            <Link to="/payment" aria-label="Edit payment">
              Edit
            </Link>
          </Card>
          <Card id="preview-items" title="Items">
            {cartItems.length === 0 ? (
              <MessageBox>
                Cart is empty. <Link to="/">Go Shopping</Link>
              </MessageBox>
            ) : (
              <OrderLines lines={cartItems} currency={currency} />
            )}
            <Link to="/cart" aria-label="Edit items">
              Edit
            </Link>
          </Card>
        </div>
        <Card id="preview-summary" title="Order Summary">
          <OrderSummary prices={prices} currency={currency} />
          {failure && <MessageBox variant="danger">{failure}</MessageBox>}
          <Button
            className={shared['wide']}
            disabled={cartItems.length === 0 || placing}
            onClick={() => void placeOrder()}
          >
            {placing ? 'Placing Order...' : 'Place Order'}
          </Button>
        </Card>
      </div>
    </section>
  );
}
