import { isPaymentMethod } from '@shop/contracts';
import type { CartItem, PaymentMethod, ShippingAddress } from './cart.types';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

const isAmount = (value: unknown): value is number =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0;

/**
 * True for a stored cart line with the fields the cart needs; the price and quantity must be ones the
 * pricing accepts (a whole quantity from 1), so a hand-edited line cannot break the cart's amounts.
 */
export function isCartItem(value: unknown): value is CartItem {
  return (
    isRecord(value) &&
    typeof value['_id'] === 'string' &&
    typeof value['name'] === 'string' &&
    isAmount(value['price']) &&
    typeof value['countInStock'] === 'number' &&
    Number.isSafeInteger(value['quantity']) &&
    (value['quantity'] as number) >= 1
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

/** True for a stored payment method an order can use, or `null` (none chosen); anything else, such as the legacy 'PayPal', is not. */
export function isStoredPaymentMethod(value: unknown): value is PaymentMethod | null {
  return value === null || isPaymentMethod(value);
}
