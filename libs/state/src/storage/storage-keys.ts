/** Browser storage keys of the client state (docs/product/data.md, "Browser storage"). */
export const STORAGE_KEYS = {
  userInfo: 'userInfo',
  cartItems: 'cartItems',
  shippingAddress: 'shippingAddress',
  paymentMethod: 'paymentMethod',
  mode: 'mode',
} as const;
