/** Browser storage keys of the client state (spec §3); the theme key is ours to choose. */
export const STORAGE_KEYS = {
  userInfo: 'userInfo',
  cartItems: 'cartItems',
  shippingAddress: 'shippingAddress',
  paymentMethod: 'paymentMethod',
  mode: 'mode',
} as const;
