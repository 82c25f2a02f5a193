import { atom } from 'jotai';
import { RESET } from 'jotai/vanilla/utils';
import { cartItemsAtom, paymentMethodAtom, shippingAddressAtom } from '../cart/cart.atoms';
import { DEFAULT_SITE_SETTINGS, siteSettingsAtom } from '../settings/site-settings.atoms';
import { modeAtom } from '../theme/theme.atoms';
import { systemThemeMode } from '../theme/theme-mode';
import { userInfoAtom } from '../user/user-info.atoms';

/**
 * Signs out (docs/product/rules.md, "Session"): forgets the user, empties the cart, no payment method
 * chosen, blank address, theme from the system preference, site settings back to not-loaded; removes the
 * four storage keys.
 * Navigating to /signin is the caller's job.
 */
export const signOutAtom = atom(null, (_get, set) => {
  // RESET puts the initial value back and removes the storage key.
  set(userInfoAtom, RESET);
  set(cartItemsAtom, RESET);
  set(shippingAddressAtom, RESET);
  set(paymentMethodAtom, RESET);
  set(modeAtom, systemThemeMode());
  set(siteSettingsAtom, DEFAULT_SITE_SETTINGS);
});
