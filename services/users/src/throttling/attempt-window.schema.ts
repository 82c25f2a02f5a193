import { Schema } from 'mongoose';

/** One fixed window of attempts of one action by one account or one client address. */
export interface AttemptWindowRecord {
  /** `<action>:<scope>:<sha256 of the key>:<window start ms>` */
  _id: string;
  count: number;
  expiresAt: Date;
}

export const ATTEMPT_WINDOW_MODEL = 'AttemptWindow';

export const attemptWindowSchema = new Schema<AttemptWindowRecord>(
  {
    _id: { type: String, required: true },
    count: { type: Number, required: true, default: 0 },
    expiresAt: { type: Date, required: true, index: true },
  },
  { versionKey: false, collection: 'attempt_windows' },
);
