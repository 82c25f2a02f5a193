import { shippingAddressAtom } from '@shop/state';
import { Button } from '@shop/ui';
import { useAtom } from 'jotai';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { CheckoutSteps } from '../../shared/checkout-steps';
import shared from '../../shared/checkout.module.css';
import { COUNTRY_NAMES } from './country-names';
import {
  SHIPPING_FIELDS,
  type ShippingErrors,
  type ShippingField,
  toShippingAddress,
  validateShipping,
} from './shipping-form';

const AUTOCOMPLETE: Record<ShippingField, string> = {
  fullName: 'name',
  address: 'street-address',
  city: 'address-level2',
  country: 'country-name',
  phoneNumber: 'tel',
};

/**
 * Shipping Address (docs/product/screens.md, "Shipping"): five required fields, checked as the server
 * checks them; Continue → /payment.
 */
export default function ShippingPage() {
  const [saved, setShippingAddress] = useAtom(shippingAddressAtom);
  const navigate = useNavigate();
  const [values, setValues] = useState<Record<ShippingField, string>>({
    fullName: saved.fullName,
    address: saved.address,
    city: saved.city,
    country: saved.country,
    phoneNumber: saved.phoneNumber,
  });
  const [errors, setErrors] = useState<ShippingErrors>({});
  // An address saved before the list existed keeps its country selectable.
  const countries =
    saved.country && !COUNTRY_NAMES.includes(saved.country)
      ? [saved.country, ...COUNTRY_NAMES]
      : COUNTRY_NAMES;

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found = validateShipping(values);
    setErrors(found);
    const firstInvalid = SHIPPING_FIELDS.find(({ name }) => found[name]);
    if (firstInvalid) {
      const field = event.currentTarget.elements.namedItem(firstInvalid.name);
      if (field instanceof HTMLElement) field.focus();
      return;
    }
    setShippingAddress(toShippingAddress(values));
    navigate('/payment');
  };

  const change = (name: ShippingField, value: string) => {
    setValues((current) => ({ ...current, [name]: value }));
    if (errors[name]) setErrors((current) => ({ ...current, [name]: undefined }));
  };

  return (
    <section className={`${shared['page']} ${shared['narrow']}`}>
      <title>Shipping Address</title>
      <CheckoutSteps current="Shipping" />
      <h1>Shipping Address</h1>
      <form className={shared['form']} onSubmit={onSubmit} noValidate>
        {SHIPPING_FIELDS.map(({ name, label, maxLength }) => {
          const error = errors[name];
          const common = {
            id: `shipping-${name}`,
            name,
            required: true,
            autoComplete: AUTOCOMPLETE[name],
            value: values[name],
            'aria-invalid': error ? true : undefined,
            'aria-describedby': error ? `shipping-${name}-error` : undefined,
          };
          return (
            <div key={name} className={shared['field']}>
              <label htmlFor={`shipping-${name}`}>{label}</label>
              {name === 'country' ? (
                <select {...common} onChange={(e) => change(name, e.target.value)}>
                  <option value="">Select a country</option>
                  {countries.map((country) => (
                    <option key={country} value={country}>
                      {country}
                    </option>
                  ))}
                </select>
              ) : (
                <input
                  {...common}
                  type={name === 'phoneNumber' ? 'tel' : 'text'}
                  maxLength={maxLength}
                  onChange={(e) => change(name, e.target.value)}
                />
              )}
              {error && (
                <p id={`shipping-${name}-error`} className={shared['fieldError']}>
                  {error}
                </p>
              )}
            </div>
          );
        })}
        <Button type="submit">Continue</Button>
      </form>
    </section>
  );
}
