import { ADMIN_ACTION } from './admin-action.event';
import { ORDER_CANCELLED } from './order-cancelled.event';
import { ORDER_REFUNDED } from './order-refunded.event';
import { ORDER_CREATED } from './order-created.event';
import { ORDER_DELETED } from './order-deleted.event';
import { ORDER_DELIVERED } from './order-delivered.event';
import { ORDER_PAID } from './order-paid.event';
import { LOW_STOCK_THRESHOLD_UPDATED } from './low-stock-threshold-updated.event';
import { PRODUCT_DELETED } from './product-deleted.event';
import { PRODUCT_LOW_STOCK } from './product-low-stock.event';
import { PRODUCT_UPDATED } from './product-updated.event';
import { SETTINGS_UPDATED } from './settings-updated.event';
import { USER_DELETED } from './user-deleted.event';
import { USER_PASSWORD_RESET } from './user-password-reset.event';
import { USER_PROMOTED } from './user-promoted.event';
import { WALLET_UPDATED } from './wallet-updated.event';

/**
 * The version of a message that carries none: the shape every event and command had before
 * versions existed (docs/decisions/0013-event-compatibility.md). Parts deployed earlier still send
 * that shape, and the events stream keeps such events for `EVENTS_MAX_AGE_DAYS`.
 */
export const FIRST_SCHEMA_VERSION = 1;

/**
 * The current schema version of each event type. Adding an optional field keeps the version
 * (consumers ignore fields they do not know); a change an older consumer would misread (a field
 * removed, renamed or given another meaning) raises it, and consumers learn it before producers send it.
 */
export const EVENT_SCHEMA_VERSIONS: Readonly<Record<string, number>> = {
  [ORDER_CANCELLED]: 1,
  [ORDER_REFUNDED]: 1,
  [ORDER_CREATED]: 1,
  [ORDER_DELETED]: 1,
  [ORDER_DELIVERED]: 1,
  [ORDER_PAID]: 1,
  [PRODUCT_DELETED]: 1,
  [PRODUCT_LOW_STOCK]: 1,
  [LOW_STOCK_THRESHOLD_UPDATED]: 1,
  [PRODUCT_UPDATED]: 1,
  [SETTINGS_UPDATED]: 1,
  [USER_DELETED]: 1,
  [USER_PASSWORD_RESET]: 1,
  [USER_PROMOTED]: 1,
  [WALLET_UPDATED]: 1,
  [ADMIN_ACTION]: 1,
};

/** The schema version this build writes and reads for an event type (a type it does not list: the first). */
export function eventSchemaVersion(type: string): number {
  return Object.hasOwn(EVENT_SCHEMA_VERSIONS, type) ? EVENT_SCHEMA_VERSIONS[type]! : FIRST_SCHEMA_VERSION;
}

/**
 * The schema version a message (event envelope, command request or reply) says it has: the first
 * when it carries none, `undefined` when what it carries is not a positive whole number.
 */
export function schemaVersionOf(message: unknown): number | undefined {
  const version: unknown =
    typeof message === 'object' && message !== null
      ? (message as { schemaVersion?: unknown }).schemaVersion
      : undefined;
  if (version === undefined || version === null) return FIRST_SCHEMA_VERSION;
  return typeof version === 'number' && Number.isSafeInteger(version) && version >= 1 ? version : undefined;
}
