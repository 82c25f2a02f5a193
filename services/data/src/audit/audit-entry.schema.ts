import type { AdminActionName, AuditTargetType } from '@shop/contracts';
import { Schema } from 'mongoose';

export const AUDIT_ENTRY_MODEL = 'AuditEntry';

/** One admin action, stored once under its event's id. */
export interface AuditEntryRecord {
  /** The `admin.action` event's id: a redelivered event finds its entry already there. */
  _id: string;
  actorId: string;
  action: AdminActionName;
  target: { type: AuditTargetType; id: string; label: string };
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  /** When the action took effect (the event's `occurredAt`). */
  at: Date;
  /** When the trail stored it. */
  recordedAt: Date;
}

/** What an audit entry refuses: it is written once and never changed or removed. */
const CHANGES = [
  'updateOne',
  'updateMany',
  'findOneAndUpdate',
  'findOneAndReplace',
  'replaceOne',
  'deleteOne',
  'deleteMany',
  'findOneAndDelete',
] as const;

// `type` is a field here, so this part declares types under `$type`.
const targetSchema = new Schema(
  {
    type: { $type: String, required: true },
    id: { $type: String, required: true },
    label: { $type: String, default: '' },
  },
  { _id: false, typeKey: '$type' },
);

export const auditEntrySchema = new Schema<AuditEntryRecord>(
  {
    _id: { type: String, required: true },
    actorId: { type: String, required: true },
    action: { type: String, required: true },
    target: { type: targetSchema, required: true },
    before: { type: Schema.Types.Mixed, default: null },
    after: { type: Schema.Types.Mixed, default: null },
    at: { type: Date, required: true },
    recordedAt: { type: Date, required: true },
  },
  { collection: 'audit_entries', versionKey: false, minimize: false },
);

// Newest first, alone or within one action, one target or one admin; `_id` keeps pages stable.
auditEntrySchema.index({ at: -1, _id: -1 });
auditEntrySchema.index({ action: 1, at: -1, _id: -1 });
auditEntrySchema.index({ 'target.id': 1, at: -1, _id: -1 });
auditEntrySchema.index({ actorId: 1, at: -1, _id: -1 });

// Append-only in code too: no path of this service can change or remove an entry through the model.
for (const operation of CHANGES) {
  auditEntrySchema.pre(operation, function refuse() {
    throw new Error(`audit entries are append-only: ${operation} refused`);
  });
}
