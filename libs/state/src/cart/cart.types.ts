/** One line of the cart (spec §3). */
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

/** Where the order goes (spec §3). */
export interface ShippingAddress {
  fullName: string;
  address: string;
  city: string;
  country: string;
  phoneNumber: string;
  price: number;
}

/** Amounts of the cart, in currency units rounded to cents. */
export interface CartPrices {
  itemsPrice: number;
  shippingPrice: number;
  taxPrice: number;
  discountPrice: number;
  totalPrice: number;
}

/** Payment method names the storefront knows; 'PayPal' is the initial state value (spec §9). */
export type PaymentMethod = 'PayPal' | 'bitcoin' | 'apple Pay' | 'cashapp';

export const DEFAULT_PAYMENT_METHOD: PaymentMethod = 'PayPal';

export const EMPTY_SHIPPING_ADDRESS: ShippingAddress = {
  fullName: '',
  address: '',
  city: '',
  country: '',
  phoneNumber: '',
  price: 0,
};

/** Toast texts of the cart rules (spec §8). */
export const CART_MESSAGES = {
  added: 'Product added to the cart',
  outOfStock: 'Sorry. Product is out of stock',
} as const;
