import { Schema } from 'mongoose';

/** The low-stock threshold of one site settings record, as data's events said it. */
export interface SiteThresholdRecord {
  /** The settings record's id. */
  _id: string;
  lowStockThreshold: number;
  occurredAt: string;
}

export const SITE_THRESHOLD_MODEL = 'SiteThreshold';

export const siteThresholdSchema = new Schema<SiteThresholdRecord>(
  {
    _id: { type: String, required: true },
    lowStockThreshold: { type: Number, required: true, min: 0 },
    occurredAt: { type: String, required: true },
  },
  { versionKey: false, collection: 'site_thresholds' },
);
