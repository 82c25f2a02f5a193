import { type EventEnvelope, eventSchemaVersion, schemaVersionOf } from '@shop/contracts';

/** What a consumer makes of a decoded message (see `readEvent`). */
export type ReadEvent =
  | { kind: 'event'; event: EventEnvelope }
  /** A version of its type newer than this build knows: a later build of the consumer must handle it. */
  | { kind: 'newer'; event: EventEnvelope; knownVersion: number }
  /** Not an event envelope at all: no retry will make it one. */
  | { kind: 'invalid' };

const isText = (value: unknown): value is string => typeof value === 'string' && value.length > 0;

/**
 * Reads an event envelope the tolerant way a part deployed at another time needs: an envelope
 * without `schemaVersion` is the first version (published before versions existed), and fields this
 * build does not know are left out, so nothing unknown reaches a handler through the envelope.
 * Handlers read `data` the same way: they take the fields they use and check their types.
 */
export function readEvent(raw: unknown): ReadEvent {
  if (typeof raw !== 'object' || raw === null) return { kind: 'invalid' };
  const { id, type, occurredAt, data } = raw as Record<string, unknown>;
  const schemaVersion = schemaVersionOf(raw);
  if (!isText(id) || !isText(type) || typeof occurredAt !== 'string' || schemaVersion === undefined) {
    return { kind: 'invalid' };
  }
  const event: EventEnvelope = { id, type, schemaVersion, occurredAt, data };
  const knownVersion = eventSchemaVersion(type);
  return schemaVersion > knownVersion ? { kind: 'newer', event, knownVersion } : { kind: 'event', event };
}
