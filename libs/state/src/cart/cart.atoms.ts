import type { Product } from '@shop/contracts';
import { atom } from 'jotai';
import { atomWithStorage } from 'jotai/vanilla/utils';
import { validatedLocalStorage } from '../storage/json-storage';
import { STORAGE_KEYS } from '../storage/storage-keys';
import { isCartItemList, isShippingAddress, isStoredPaymentMethod } from './cart-storage';
import {
  addToCart,
  cartQuantity,
  computeCartPrices,
  removeFromCart,
  setCartQuantity,
  type CartChange,
} from './cart.rules';
import {
  DEFAULT_PAYMENT_METHOD,
  EMPTY_SHIPPING_ADDRESS,
  type CartItem,
  type CartPrices,
  type PaymentMethod,
  type ShippingAddress,
} from './cart.types';

/** Cart lines, persisted under `cartItems`. */
export const cartItemsAtom = atomWithStorage<CartItem[]>(
  STORAGE_KEYS.cartItems,
  [],
  validatedLocalStorage(isCartItemList),
  { getOnInit: true },
);

/** Shipping address, persisted under `shippingAddress`. */
export const shippingAddressAtom = atomWithStorage<ShippingAddress>(
  STORAGE_KEYS.shippingAddress,
  EMPTY_SHIPPING_ADDRESS,
  validatedLocalStorage(isShippingAddress),
  { getOnInit: true },
);

/** Chosen payment method, persisted under `paymentMethod`; `null` until the shopper chooses one. */
export const paymentMethodAtom = atomWithStorage<PaymentMethod | null>(
  STORAGE_KEYS.paymentMethod,
  DEFAULT_PAYMENT_METHOD,
  validatedLocalStorage(isStoredPaymentMethod),
  { getOnInit: true },
);

/** The cart's amounts for the chosen method (`priceOrder` of `@shop/contracts`, as the server prices). */
export const cartPricesAtom = atom<CartPrices>((get) =>
  computeCartPrices(get(cartItemsAtom), get(paymentMethodAtom)),
);

/** Total quantity of all lines (the cart badge). */
export const cartQuantityAtom = atom((get) => cartQuantity(get(cartItemsAtom)));

/** The whole cart (docs/product/data.md, "Client state"): lines, address, method and amounts. */
export const cartAtom = atom((get) => ({
  cartItems: get(cartItemsAtom),
  shippingAddress: get(shippingAddressAtom),
  paymentMethod: get(paymentMethodAtom),
  ...get(cartPricesAtom),
}));

/** Adds one of a product (see `addToCart`); returns whether it was accepted. */
export const addToCartAtom = atom(null, (get, set, product: Product): CartChange => {
  const change = addToCart(get(cartItemsAtom), product);
  if (change.ok) set(cartItemsAtom, change.cartItems);
  return change;
});

/** Sets one line's quantity within 1..stock; returns whether it was accepted. */
export const setCartQuantityAtom = atom(null, (get, set, id: string, quantity: number): CartChange => {
  const change = setCartQuantity(get(cartItemsAtom), id, quantity);
  if (change.ok) set(cartItemsAtom, change.cartItems);
  return change;
});

/** Removes a line by _id. */
export const removeFromCartAtom = atom(null, (get, set, id: string) => {
  set(cartItemsAtom, removeFromCart(get(cartItemsAtom), id));
});

/**
 * Empties the cart after an order was placed, in storage too, so a reload cannot bring back (and place
 * again) what was just ordered (docs/decisions/0008-checkout-screens.md).
 */
export const clearCartItemsAtom = atom(null, (_get, set) => {
  set(cartItemsAtom, []);
});
