import type { Schema } from '../http/api-types';

/** Website settings record (docs/product/data.md, "Website settings"); the storefront uses the first one. */
export type SiteSettings = Schema<'SiteSettingsResponse'>;

export const DATA_API = '/api/data';

/** Every settings record (`GET /api/data/all-data`, public): the storefront shows the first. */
export const SITE_SETTINGS_API = `${DATA_API}/all-data`;

/** Length limits of the website settings, shared by the server's validation and the admin form. */
export const SITE_SETTINGS_LIMITS = { siteName: 60, currency: 5, lowStockThreshold: 1_000_000 } as const;

/**
 * A product is low on stock at this many units or fewer unless it has a threshold of its own
 * (docs/product/rules.md, "Low stock"); admins change it in the site settings.
 */
export const DEFAULT_LOW_STOCK_THRESHOLD = 5;

/** Body of `PUT api/data/update-data` (admin). */
export type UpdateSiteSettingsRequest = Schema<'UpdateSiteSettingsDto'>;
