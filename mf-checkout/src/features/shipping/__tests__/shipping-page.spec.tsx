import type { ShippingAddress } from '@shop/contracts';
import { EMPTY_SHIPPING_ADDRESS, shippingAddressAtom } from '@shop/state';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createStore } from 'jotai';
import { beforeEach, describe, expect, it } from 'vitest';
import { renderScreen } from '@shop/ui/testing';
import { TEST_ADDRESS } from '../../../testing/shopper';
import ShippingPage from '../shipping-page';

const renderShipping = () => renderScreen(<ShippingPage />, { url: '/shipping' }).store;

async function fillIn(values: ShippingAddress) {
  const user = userEvent.setup();
  await user.type(screen.getByLabelText('Full Name'), values.fullName);
  await user.type(screen.getByLabelText('Address'), values.address);
  await user.type(screen.getByLabelText('City'), values.city);
  if (values.country) await user.selectOptions(screen.getByLabelText('Country'), values.country);
  await user.type(screen.getByLabelText('Phone Number'), values.phoneNumber);
  return user;
}

describe('Shipping Address screen', () => {
  beforeEach(() => localStorage.clear());

  it('shows the steps bar at Shipping and the five required fields', () => {
    renderShipping();
    expect(screen.getByRole('heading', { level: 1, name: 'Shipping Address' })).toBeInTheDocument();
    const steps = screen.getByRole('navigation', { name: 'Checkout steps' });
    expect(
      within(steps)
        .getAllByRole('listitem')
        .map((step) => step.textContent),
    ).toEqual(['Sign-In (done)', 'Shipping', 'Payment', 'Place Order']);
    expect(within(steps).getByText('Shipping')).toHaveAttribute('aria-current', 'step');
    for (const label of ['Full Name', 'Address', 'City', 'Country', 'Phone Number']) {
      expect(screen.getByLabelText(label)).toBeRequired();
    }
  });

  it("lists the world's countries from the data package, A to Z, after 'Select a country'", () => {
    renderShipping();
    const options = within(screen.getByLabelText('Country')).getAllByRole('option');
    expect(options[0]).toHaveTextContent('Select a country');
    expect(options[0]).toHaveValue('');
    const names = options.slice(1).map((option) => option.textContent ?? '');
    expect(names.length).toBeGreaterThan(190);
    expect(names).toEqual(expect.arrayContaining(['Germany', 'Japan', 'Kenya', 'United States of America']));
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en')));
  });

  it('says which fields are missing and stays on the page', async () => {
    renderShipping();
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));

    expect(screen.getByLabelText('Full Name')).toHaveAccessibleDescription('Full Name is required');
    expect(screen.getByLabelText('Country')).toHaveAccessibleDescription('Please select a country');
    expect(screen.getByLabelText('Full Name')).toHaveFocus();
    expect(screen.getByTestId('location')).toHaveTextContent('/shipping');
  });

  it("refuses a phone number the server's rule refuses, before sending anything", async () => {
    const store = renderShipping();
    const user = await fillIn({ ...TEST_ADDRESS, phoneNumber: '555-CALL' });
    await user.click(screen.getByRole('button', { name: 'Continue' }));

    expect(screen.getByLabelText('Phone Number')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('Phone Number')).toHaveAccessibleDescription(/valid phone number/);
    expect(store.get(shippingAddressAtom)).toEqual(EMPTY_SHIPPING_ADDRESS);
  });

  it('saves the trimmed address with price 0 and continues to /payment', async () => {
    const store = renderShipping();
    const user = await fillIn({ ...TEST_ADDRESS, fullName: '  Ann Lee ', phoneNumber: '+1 (512) 555-0100' });
    await user.click(screen.getByRole('button', { name: 'Continue' }));

    expect(store.get(shippingAddressAtom)).toEqual({
      fullName: 'Ann Lee',
      address: '1 Main St',
      city: 'Austin',
      country: 'United States of America',
      phoneNumber: '+1 (512) 555-0100',
      price: 0,
    });
    expect(JSON.parse(localStorage.getItem('shippingAddress') ?? 'null')).toMatchObject({ city: 'Austin' });
    expect(screen.getByTestId('location')).toHaveTextContent('/payment');
  });

  it('starts from the address saved earlier', () => {
    const store = createStore();
    store.set(shippingAddressAtom, {
      fullName: 'Bo',
      address: 'Elm 2',
      city: 'Oslo',
      country: 'Norway',
      phoneNumber: '12345678',
      price: 0,
    });
    renderScreen(<ShippingPage />, { url: '/shipping', store });
    expect(screen.getByLabelText('Full Name')).toHaveValue('Bo');
    expect(screen.getByLabelText('Country')).toHaveValue('Norway');
  });
});
