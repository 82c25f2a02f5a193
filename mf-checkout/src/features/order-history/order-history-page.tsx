import { CheckoutPlaceholder } from '../placeholder/checkout-placeholder';

/** Order History (spec §2 "Checkout"); placeholder until the step is built. */
export default function OrderHistoryPage() {
  return <CheckoutPlaceholder title="Order History" />;
}
