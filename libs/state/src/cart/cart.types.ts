import type { OrderPrices, ShippingAddress as OrderShippingAddress, PaymentMethod } from '@shop/contracts';

/** One line of the cart (docs/product/data.md, "Cart line"). */
export interface CartItem {
  _id: string;
  name: string;
  slug: string;
  /** First product image, or '' when the product has none. */
  image: string;
  price: number;
  countInStock: number;
  quantity: number;
}

/**
 * Where the order goes (docs/product/data.md, "Shipping address"): the order's address, and the shipping
 * price the cart keeps with it.
 */
export interface ShippingAddress extends OrderShippingAddress {
  price: number;
}

/** Amounts of the cart: the server's own pricing (`priceOrder`), applied to the cart's lines. */
export type CartPrices = OrderPrices;

/** A payment method an order can use (`PAYMENT_METHODS` of `@shop/contracts`). */
export type { PaymentMethod };

/**
 * The payment method in the state before the shopper chose one: `null`, "no method chosen"
 * (docs/product/rules.md, "Checkout"). The shop was first specified with PayPal as the initial value,
 * but no order can use it; a stored 'PayPal' reads as `null` too (docs/decisions/0008-checkout-screens.md).
 */
export const DEFAULT_PAYMENT_METHOD: PaymentMethod | null = null;

export const EMPTY_SHIPPING_ADDRESS: ShippingAddress = {
  fullName: '',
  address: '',
  city: '',
  country: '',
  phoneNumber: '',
  price: 0,
};

/** Toast texts of the cart rules (docs/product/messages.md, "Shopper toasts"). */
export const CART_MESSAGES = {
  added: 'Product added to the cart',
  outOfStock: 'Sorry. Product is out of stock',
} as const;
