import type { CartItem, PaymentMethod, ShippingAddress } from './cart.types';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

/** True for a stored cart line with the fields the cart needs. */
export function isCartItem(value: unknown): value is CartItem {
  return (
    isRecord(value) &&
    typeof value['_id'] === 'string' &&
    typeof value['name'] === 'string' &&
    typeof value['price'] === 'number' &&
    typeof value['countInStock'] === 'number' &&
    typeof value['quantity'] === 'number'
  );
}

/** True for a stored list of cart lines. */
export function isCartItemList(value: unknown): value is CartItem[] {
  return Array.isArray(value) && value.every(isCartItem);
}

/** True for a stored shipping address. */
export function isShippingAddress(value: unknown): value is ShippingAddress {
  return (
    isRecord(value) &&
    ['fullName', 'address', 'city', 'country', 'phoneNumber'].every((key) => typeof value[key] === 'string')
  );
}

/** True for a stored payment method name. */
export function isPaymentMethod(value: unknown): value is PaymentMethod {
  return value === 'PayPal' || value === 'bitcoin' || value === 'apple Pay' || value === 'cashapp';
}
