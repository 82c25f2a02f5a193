import { CheckoutPlaceholder } from '../placeholder/checkout-placeholder';

/** Order (spec §2 "Checkout"); placeholder until the step is built. */
export default function OrderPage() {
  return <CheckoutPlaceholder title="Order" />;
}
