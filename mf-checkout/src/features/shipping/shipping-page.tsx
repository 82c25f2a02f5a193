import { CheckoutPlaceholder } from '../placeholder/checkout-placeholder';

/** Shipping Address (spec §2 "Checkout"); placeholder until the step is built. */
export default function ShippingPage() {
  return <CheckoutPlaceholder title="Shipping Address" />;
}
