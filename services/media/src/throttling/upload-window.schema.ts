import { Schema } from 'mongoose';

/** The uploads of one user in one fixed window. */
export interface UploadWindowRecord {
  /** `<user id>:<window start ms>` */
  _id: string;
  count: number;
  expiresAt: Date;
}

export const UPLOAD_WINDOW_MODEL = 'UploadWindow';

export const uploadWindowSchema = new Schema<UploadWindowRecord>(
  {
    _id: { type: String, required: true },
    count: { type: Number, required: true, default: 0 },
    expiresAt: { type: Date, required: true, index: true },
  },
  { versionKey: false, collection: 'upload_windows' },
);
