import { type OutboxEntry, withOutbox } from '@shop/service-kit';
import { Schema } from 'mongoose';

/** The variant an admin chose for a flag: one record per flag, its key as the id. */
export interface FeatureFlagStateRecord {
  _id: string;
  variant: string;
  /** When and by whom it was last switched; absent while it is the definition's default. */
  switchedAt?: Date;
  switchedBy?: string;
  /** Events waiting for the relay (`withOutbox`); never selected by reads. */
  outbox?: OutboxEntry[];
}

export const FEATURE_FLAG_STATE_MODEL = 'FeatureFlagState';

export const featureFlagStateSchema = new Schema<FeatureFlagStateRecord>(
  {
    _id: { type: String, required: true },
    variant: { type: String, required: true },
    switchedAt: Date,
    switchedBy: String,
  },
  { versionKey: false, collection: 'feature_flag_states' },
);
withOutbox(featureFlagStateSchema);
