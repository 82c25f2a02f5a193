import {
  ADMIN_ACTION,
  type AdminActionData,
  type AdminActionEvent,
  type AdminActionName,
  type AuditTargetType,
} from '@shop/contracts';
import type { AuthenticatedUser } from '../auth/token-claims';
import { newEvent } from './new-event';

type Fields = Record<string, unknown>;

/** Texts longer than this (a QR code's data URL, a long description) are kept as their start and length. */
export const LONGEST_AUDITED_TEXT = 500;
const KEPT_START = 120;

/** A value as the audit trail keeps it: JSON, dates as ISO strings, ids as hex, long texts cut. */
export function auditValue(value: unknown): unknown {
  if (value === undefined || value === null) return null;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'string') {
    return value.length > LONGEST_AUDITED_TEXT
      ? `${value.slice(0, KEPT_START)}… (${value.length} characters)`
      : value;
  }
  if (Array.isArray(value)) return value.map(auditValue);
  if (typeof value === 'object') {
    const hex = (value as { toHexString?: () => string }).toHexString;
    if (typeof hex === 'function') return hex.call(value);
    return Object.fromEntries(Object.entries(value).map(([key, each]) => [key, auditValue(each)]));
  }
  return value;
}

/**
 * The fields whose values differ between `before` and `after` (a field absent on one side counts as
 * null), each side as the audit trail keeps it. Fields equal on both sides are left out.
 */
export function changedFields(before: Fields, after: Fields): { before: Fields; after: Fields } {
  const changed = { before: {} as Fields, after: {} as Fields };
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const was = auditValue(before[key]);
    const is = auditValue(after[key]);
    if (JSON.stringify(was) === JSON.stringify(is)) continue;
    changed.before[key] = was;
    changed.after[key] = is;
  }
  return changed;
}

export interface AdminActionOptions {
  actor: AuthenticatedUser;
  action: AdminActionName;
  target: { type: AuditTargetType; id: string; label: string };
  /** The target's fields before the action: null when it created the target. */
  before: Fields | null;
  /** The target's fields after it: null when it deleted the target. */
  after: Fields | null;
}

/**
 * The `admin.action` event of one admin action, for the same write as the change (the outbox), so the
 * audit trail records exactly the actions that took effect. With both sides given only the fields that
 * changed are kept; a created or deleted target keeps every field it was given.
 */
export function adminActionEvent(options: AdminActionOptions): AdminActionEvent {
  const { before, after } = options;
  const sides =
    before && after
      ? changedFields(before, after)
      : {
          before: before && (auditValue(before) as Fields),
          after: after && (auditValue(after) as Fields),
        };
  const data: AdminActionData = {
    actorId: options.actor.id,
    action: options.action,
    target: options.target,
    before: sides.before,
    after: sides.after,
  };
  return newEvent(ADMIN_ACTION, data);
}

/**
 * A filter that matches a document only while these fields still hold the values read (a compare-and-set
 * on what the audit's `before` says). An absent or null value matches a field that is null or missing.
 */
export function stillHolding(fields: Fields): Fields {
  return Object.fromEntries(
    Object.entries(fields).map(([key, value]) => [key, value === undefined ? null : value]),
  );
}
