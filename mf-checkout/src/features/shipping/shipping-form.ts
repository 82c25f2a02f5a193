import { ORDER_LIMITS, isPhoneNumber } from '@shop/contracts';
import type { ShippingAddress } from '@shop/state';

export type ShippingField = 'fullName' | 'address' | 'city' | 'country' | 'phoneNumber';

/**
 * The form's fields in screen order, with their labels (docs/product/screens.md, "Shipping") and the
 * server's length limits.
 */
export const SHIPPING_FIELDS: ReadonlyArray<{ name: ShippingField; label: string; maxLength: number }> = [
  { name: 'fullName', label: 'Full Name', maxLength: ORDER_LIMITS.fullName },
  { name: 'address', label: 'Address', maxLength: ORDER_LIMITS.address },
  { name: 'city', label: 'City', maxLength: ORDER_LIMITS.city },
  { name: 'country', label: 'Country', maxLength: ORDER_LIMITS.country },
  { name: 'phoneNumber', label: 'Phone Number', maxLength: ORDER_LIMITS.phoneNumber },
];

const SHIPPING_MESSAGES = {
  countryRequired: 'Please select a country',
  phoneInvalid:
    'Please enter a valid phone number: at least 5 digits; spaces, ( ) . - and a leading + allowed',
} as const;

export type ShippingErrors = Partial<Record<ShippingField, string>>;

/**
 * What is wrong with the form (every field required, a country chosen), checked as the orders service
 * checks it: trimmed, and the phone number by the shared `isPhoneNumber`
 * (docs/product/rules.md, "Validation").
 */
export function validateShipping(values: Record<ShippingField, string>): ShippingErrors {
  const errors: ShippingErrors = {};
  for (const { name, label } of SHIPPING_FIELDS) {
    if (values[name].trim() === '') {
      errors[name] = name === 'country' ? SHIPPING_MESSAGES.countryRequired : `${label} is required`;
    }
  }
  if (!errors.phoneNumber && !isPhoneNumber(values.phoneNumber)) {
    errors.phoneNumber = SHIPPING_MESSAGES.phoneInvalid;
  }
  return errors;
}

/**
 * The address the state keeps: trimmed fields, shipping price 0
 * (docs/product/data.md, "Shipping address").
 */
export function toShippingAddress(values: Record<ShippingField, string>): ShippingAddress {
  return {
    fullName: values.fullName.trim(),
    address: values.address.trim(),
    city: values.city.trim(),
    country: values.country.trim(),
    phoneNumber: values.phoneNumber.trim(),
    price: 0,
  };
}
