import { paymentMethodAtom, shippingAddressAtom } from '@shop/state';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createStore } from 'jotai';
import { beforeEach, describe, expect, it } from 'vitest';
import { renderScreen } from '@shop/ui/testing';
import { TEST_SHIPPING } from '../../../testing/shopper';
import PaymentPage from '../payment-page';

function renderPayment({ withAddress = true } = {}) {
  const store = createStore();
  if (withAddress) store.set(shippingAddressAtom, TEST_SHIPPING);
  renderScreen(<PaymentPage />, { url: '/payment', store });
  return store;
}

describe('Payment Method screen', () => {
  beforeEach(() => localStorage.clear());

  it('sends a shopper without a shipping address to /shipping', () => {
    renderPayment({ withAddress: false });
    expect(screen.getByTestId('location')).toHaveTextContent('/shipping');
    expect(screen.queryByRole('heading', { name: 'Payment Method' })).not.toBeInTheDocument();
  });

  it('offers bitcoin, apple Pay and cashapp with bitcoin chosen when none was', () => {
    const store = renderPayment();
    expect(store.get(paymentMethodAtom)).toBeNull();
    expect(screen.getByRole('navigation', { name: 'Checkout steps' })).toHaveTextContent(/Payment/);
    const radios = screen.getAllByRole('radio');
    expect(radios.map((radio) => radio.getAttribute('value'))).toEqual(['bitcoin', 'apple Pay', 'cashapp']);
    expect(screen.getByRole('radio', { name: 'bitcoin' })).toBeChecked();
  });

  it('saves the choice and continues to /placeorder', async () => {
    const store = renderPayment();
    await userEvent.click(screen.getByRole('radio', { name: 'cashapp' }));
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));

    expect(store.get(paymentMethodAtom)).toBe('cashapp');
    expect(localStorage.getItem('paymentMethod')).toBe('"cashapp"');
    expect(screen.getByTestId('location')).toHaveTextContent('/placeorder');
  });

  it('starts from the method chosen earlier', () => {
    const store = createStore();
    store.set(shippingAddressAtom, TEST_SHIPPING);
    store.set(paymentMethodAtom, 'apple Pay');
    renderScreen(<PaymentPage />, { url: '/payment', store });
    expect(screen.getByRole('radio', { name: 'apple Pay' })).toBeChecked();
  });
});
