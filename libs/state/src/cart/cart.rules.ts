import { type Product, priceOrder } from '@shop/contracts';
import type { CartItem, CartPrices, PaymentMethod, ShippingAddress } from './cart.types';

/** Why the cart refused a change. */
export type CartRefusal = 'out-of-stock' | 'not-in-cart';

/** Result of a cart change: the new list, or the reason it was refused (the old list stays). */
export type CartChange = { ok: true; cartItems: CartItem[] } | { ok: false; reason: CartRefusal };

/** The cart line a product starts as (quantity 1). */
export function cartItemFromProduct(product: Product): CartItem {
  return {
    _id: product._id,
    name: product.name,
    slug: product.slug,
    image: product.image[0] ?? '',
    price: product.price,
    countInStock: product.countInStock,
    quantity: 1,
  };
}

/** Adds one of a product: same _id raises its quantity by one, else a new line; refused when stock is lower than the new quantity. */
export function addToCart(cartItems: readonly CartItem[], product: Product): CartChange {
  const existing = cartItems.find((item) => item._id === product._id);
  const quantity = existing ? existing.quantity + 1 : 1;
  if (product.countInStock < quantity) return { ok: false, reason: 'out-of-stock' };
  const line = { ...cartItemFromProduct(product), quantity };
  return {
    ok: true,
    cartItems: existing
      ? cartItems.map((item) => (item._id === product._id ? line : item))
      : [...cartItems, line],
  };
}

/** Sets a line's quantity (at least 1, at most the stock the line knows of). */
export function setCartQuantity(cartItems: readonly CartItem[], id: string, quantity: number): CartChange {
  const existing = cartItems.find((item) => item._id === id);
  if (!existing) return { ok: false, reason: 'not-in-cart' };
  if (!Number.isInteger(quantity) || quantity < 1 || existing.countInStock < quantity) {
    return { ok: false, reason: 'out-of-stock' };
  }
  return { ok: true, cartItems: cartItems.map((item) => (item._id === id ? { ...item, quantity } : item)) };
}

/** The cart without the line of that _id. */
export function removeFromCart(cartItems: readonly CartItem[], id: string): CartItem[] {
  return cartItems.filter((item) => item._id !== id);
}

/** Total number of pieces in the cart (the badge number). */
export function cartQuantity(cartItems: readonly CartItem[]): number {
  return cartItems.reduce((sum, item) => sum + item.quantity, 0);
}

/**
 * The order amounts of the cart (docs/product/rules.md, "Pricing") from `priceOrder`, the very function
 * the orders service prices with: no method chosen (`null`) prices like a method without discount. The
 * server's answer is the truth.
 */
export function computeCartPrices(
  cartItems: readonly CartItem[],
  paymentMethod: PaymentMethod | null,
): CartPrices {
  return priceOrder(cartItems, paymentMethod ?? '');
}

/** True when every shipping field the checkout asks for is filled in. */
export function isShippingAddressComplete(address: ShippingAddress): boolean {
  return [address.fullName, address.address, address.city, address.country, address.phoneNumber].every(
    (field) => field.trim() !== '',
  );
}
