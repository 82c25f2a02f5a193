export { STORAGE_KEYS } from './storage/storage-keys';
export { shopStore } from './store/shop-store';

export { type UserInfo, isUserInfo } from './user/user-info';
export { userInfoAtom, isAdminAtom } from './user/user-info.atoms';

export { type ThemeMode, isThemeMode, systemThemeMode } from './theme/theme-mode';
export { modeAtom, toggleModeAtom } from './theme/theme.atoms';

export {
  type CartItem,
  type CartPrices,
  type PaymentMethod,
  type ShippingAddress,
  CART_MESSAGES,
  DEFAULT_PAYMENT_METHOD,
  EMPTY_SHIPPING_ADDRESS,
} from './cart/cart.types';
export {
  type CartChange,
  type CartRefusal,
  addToCart,
  cartItemFromProduct,
  cartQuantity,
  computeCartPrices,
  isShippingAddressComplete,
  removeFromCart,
  setCartQuantity,
} from './cart/cart.rules';
export {
  addToCartAtom,
  cartAtom,
  cartItemsAtom,
  cartPricesAtom,
  cartQuantityAtom,
  clearCartItemsAtom,
  paymentMethodAtom,
  removeFromCartAtom,
  setCartQuantityAtom,
  shippingAddressAtom,
} from './cart/cart.atoms';

export {
  type SiteSettingsState,
  DEFAULT_SITE_SETTINGS,
  siteSettingsAtom,
  siteSettingsFromRecords,
} from './settings/site-settings.atoms';
export { signOutAtom } from './session/sign-out.atoms';

export { formatPrice } from './format/format-price';
export { truncateWords } from './format/truncate-words';
export { type StarFill, starFills } from './rating/star-rating';

export { formatDate } from './format/format-date';

export { ApiError } from './http/api-error';
export {
  type ApiClient,
  type ApiClientOptions,
  type ApiFetch,
  type ApiRequest,
  type ApiRequestInit,
  type ApiResponse,
  createApiClient,
  genericFailure,
  serverMessage,
  totalCount,
} from './http/api-fetch';
export { apiFetch, apiRequest, endSession, onSessionEnded, signInUrlFor } from './http/shop-api-fetch';
export { IDEMPOTENCY_KEY_HEADER, newIdempotencyKey } from './http/idempotency-key';
export { type UploadOptions, uploadImage } from './http/upload-image';

export type { Product, SiteSettings } from '@shop/contracts';

export {
  type ContactDetails,
  SITE_CONFIG_URL,
  parseContactDetails,
  useContactDetails,
} from './site-config/use-contact-details';

// What a server-rendered page hydrates from (first-screen/server-answers.ts) is a subpath of its own,
// @shop/state/first-screen, bundled where it is used: the shared @shop/state ships whole to every page, and
// a remote's browser code gets the shell's @shop/state through the share scope, from shells of earlier
// releases too, so it may use only what those export (e2e/tests/compatibility.spec.ts).
