import { PAYMENT_METHODS, type PaymentMethod } from '@shop/contracts';
import { isShippingAddressComplete, paymentMethodAtom, shippingAddressAtom } from '@shop/state';
import { Button } from '@shop/ui';
import { useAtom, useAtomValue } from 'jotai';
import { useState, type FormEvent } from 'react';
import { Navigate, useNavigate } from 'react-router-dom';
import { CheckoutSteps } from '../../shared/checkout-steps';
import shared from '../../shared/checkout.module.css';
import styles from './payment-page.module.css';

/** The payment screen's choice until the shopper picks another (docs/product/rules.md, "Checkout"). */
const SCREEN_DEFAULT: PaymentMethod = 'bitcoin';

/**
 * Payment Method (docs/product/screens.md, "Payment"): bitcoin, apple Pay or cashapp; needs a shipping
 * address first.
 */
export default function PaymentPage() {
  const shippingAddress = useAtomValue(shippingAddressAtom);
  const [saved, setPaymentMethod] = useAtom(paymentMethodAtom);
  const [method, setMethod] = useState<PaymentMethod>(saved ?? SCREEN_DEFAULT);
  const navigate = useNavigate();

  if (!isShippingAddressComplete(shippingAddress)) return <Navigate to="/shipping" replace />;

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setPaymentMethod(method);
    navigate('/placeorder');
  };

  return (
    <section className={`${shared['page']} ${shared['narrow']}`}>
      <title>Payment Method</title>
      <CheckoutSteps current="Payment" />
      <h1>Payment Method</h1>
      <form className={shared['form']} onSubmit={onSubmit}>
        <fieldset className={styles['choices']}>
          <legend className={styles['legend']}>Choose how you will pay</legend>
          {PAYMENT_METHODS.map((choice) => (
            <label key={choice} className={styles['choice']}>
              <input
                type="radio"
                name="paymentMethod"
                value={choice}
                checked={method === choice}
                onChange={() => setMethod(choice)}
              />
              {choice}
            </label>
          ))}
        </fieldset>
        <Button type="submit">Continue</Button>
      </form>
    </section>
  );
}
