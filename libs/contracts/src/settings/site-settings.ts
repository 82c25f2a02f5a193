/** Website settings record (spec §3); the storefront uses the first one. */
export interface SiteSettings {
  _id: string;
  siteName: string;
  currency: string;
  logo: string;
}

export const DATA_API = '/api/data';
