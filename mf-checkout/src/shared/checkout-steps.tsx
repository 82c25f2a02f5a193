import { VisuallyHidden } from '@shop/ui';
import styles from './checkout-steps.module.css';

const STEPS = ['Sign-In', 'Shipping', 'Payment', 'Place Order'] as const;

type CheckoutStep = (typeof STEPS)[number];

/**
 * The checkout's steps bar (docs/product/screens.md, "Checkout"): Sign-In, Shipping, Payment, Place Order.
 * Steps up to `current` are marked done; the current one carries `aria-current="step"`.
 */
export function CheckoutSteps({ current }: { current: CheckoutStep }) {
  const currentIndex = STEPS.indexOf(current);
  return (
    <nav aria-label="Checkout steps" className={styles['bar']}>
      <ol className={styles['steps']}>
        {STEPS.map((step, index) => (
          <li
            key={step}
            className={index <= currentIndex ? `${styles['step']} ${styles['reached']}` : styles['step']}
            aria-current={index === currentIndex ? 'step' : undefined}
          >
            {step}
            {index < currentIndex && <VisuallyHidden> (done)</VisuallyHidden>}
          </li>
        ))}
      </ol>
    </nav>
  );
}
