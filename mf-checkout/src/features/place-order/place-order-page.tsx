import { CheckoutPlaceholder } from '../placeholder/checkout-placeholder';

/** Preview Order (spec §2 "Checkout"); placeholder until the step is built. */
export default function PlaceOrderPage() {
  return <CheckoutPlaceholder title="Preview Order" />;
}
