import { Schema } from 'mongoose';

export interface SiteSettingsRecord {
  siteName: string;
  currency: string;
  logo: string;
}

export const SITE_SETTINGS_MODEL = 'SiteSettings';

export const siteSettingsSchema = new Schema<SiteSettingsRecord>(
  {
    siteName: { type: String, required: true, trim: true, maxlength: 60 },
    currency: { type: String, required: true, trim: true, maxlength: 5 },
    logo: { type: String, default: '' },
  },
  { timestamps: true, versionKey: false, collection: 'site_settings' },
);
