/** Website settings record (docs/product/data.md, "Website settings"); the storefront uses the first one. */
export interface SiteSettings {
  _id: string;
  siteName: string;
  currency: string;
  logo: string;
}

export const DATA_API = '/api/data';

/** Every settings record (`GET /api/data/all-data`, public): the storefront shows the first. */
export const SITE_SETTINGS_API = `${DATA_API}/all-data`;

/** Length limits of the website settings, shared by the server's validation and the admin form. */
export const SITE_SETTINGS_LIMITS = { siteName: 60, currency: 5 } as const;

/** Body of `PUT api/data/update-data` (admin). */
export interface UpdateSiteSettingsRequest {
  /** The record to change (`_id` of one from `GET api/data/all-data`). */
  id: string;
  siteName: string;
  currency: string;
  /** One of our media URLs, or '' for none. */
  logo: string;
}
