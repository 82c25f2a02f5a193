import { EVENT_TYPES } from './event-types';

/**
 * The version of a message that carries none: the shape every event and command had before
 * versions existed (docs/decisions/0013-event-compatibility.md). Parts deployed earlier still send
 * that shape, and the events stream keeps such events for `EVENTS_MAX_AGE_DAYS`.
 */
export const FIRST_SCHEMA_VERSION = 1;

/** The current schema version of each event type (`EVENT_TYPES`, where each is declared with its data). */
export const EVENT_SCHEMA_VERSIONS: Readonly<Record<string, number>> = Object.fromEntries(
  Object.entries(EVENT_TYPES).map(([type, { version }]) => [type, version]),
);

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
