import { DEFAULT_LOW_STOCK_THRESHOLD, MEDIA_URL_MAX_LENGTH, SITE_SETTINGS_LIMITS } from '@shop/contracts';
import { type OutboxEntry, withOutbox } from '@shop/service-kit';
import { Schema, type Types } from 'mongoose';

export interface SiteSettingsRecord {
  _id: Types.ObjectId;
  siteName: string;
  currency: string;
  logo: string;
  /** Records written before it existed have none: read as the default. */
  lowStockThreshold?: number;
  /** Events waiting for the relay (`withOutbox`); never selected by reads. */
  outbox?: OutboxEntry[];
}

export const SITE_SETTINGS_MODEL = 'SiteSettings';

export const siteSettingsSchema = new Schema<SiteSettingsRecord>(
  {
    siteName: { type: String, required: true, trim: true, maxlength: SITE_SETTINGS_LIMITS.siteName },
    currency: { type: String, required: true, trim: true, maxlength: SITE_SETTINGS_LIMITS.currency },
    logo: { type: String, default: '', maxlength: MEDIA_URL_MAX_LENGTH },
    lowStockThreshold: {
      type: Number,
      min: 0,
      max: SITE_SETTINGS_LIMITS.lowStockThreshold,
      default: DEFAULT_LOW_STOCK_THRESHOLD,
    },
  },
  { timestamps: true, versionKey: false, collection: 'site_settings' },
);
withOutbox(siteSettingsSchema);
