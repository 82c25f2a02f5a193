import type { SiteSettings } from '@shop/contracts';
import { atom } from 'jotai';

/** Site-wide display settings every screen reads (docs/product/data.md, "Client state"). */
export interface SiteSettingsState {
  websiteName: string;
  currency: string;
  logo: string;
}

/** Shown until the site data has loaded (and after sign-out, until it loads again). */
export const DEFAULT_SITE_SETTINGS: SiteSettingsState = Object.freeze({
  websiteName: 'Firearms Store',
  currency: '$',
  logo: '',
});

/** Current site settings; `DEFAULT_SITE_SETTINGS` (same object) means not loaded yet. */
export const siteSettingsAtom = atom<SiteSettingsState>(DEFAULT_SITE_SETTINGS);

/** Site settings from the first record of `GET /api/data/all-data`; missing fields keep their defaults. */
export function siteSettingsFromRecords(records: readonly SiteSettings[]): SiteSettingsState {
  const first = records[0];
  if (!first) return DEFAULT_SITE_SETTINGS;
  return {
    websiteName: first.siteName || DEFAULT_SITE_SETTINGS.websiteName,
    currency: first.currency || DEFAULT_SITE_SETTINGS.currency,
    logo: first.logo || '',
  };
}
