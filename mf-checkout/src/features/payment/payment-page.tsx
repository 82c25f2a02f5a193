import { CheckoutPlaceholder } from '../placeholder/checkout-placeholder';

/** Payment Method (spec §2 "Checkout"); placeholder until the step is built. */
export default function PaymentPage() {
  return <CheckoutPlaceholder title="Payment Method" />;
}
