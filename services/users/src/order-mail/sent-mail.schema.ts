import { Schema } from 'mongoose';

/** An order event's e-mail: claimed before it is sent, marked once the mailer took it. */
export interface SentMailRecord {
  /** The event's id. */
  _id: string;
  state: 'sending' | 'sent';
  type: string;
  claimedAt: Date;
  sentAt?: Date;
}

export const SENT_MAIL_MODEL = 'SentMail';

export const sentMailSchema = new Schema<SentMailRecord>(
  {
    _id: { type: String, required: true },
    state: { type: String, required: true, enum: ['sending', 'sent'] },
    type: { type: String, required: true },
    claimedAt: { type: Date, required: true },
    sentAt: { type: Date },
  },
  { versionKey: false, collection: 'sent_mails' },
);
