/**
 * Every JetStream event carries an id (used as Nats-Msg-Id for de-duplication), the schema version
 * of its type's `data` (`EVENT_SCHEMA_VERSIONS`) and when it happened. Events published before
 * versions existed carry no `schemaVersion`: they have the first version's shape.
 */
export interface EventEnvelope<TType extends string = string, TData = unknown> {
  id: string;
  type: TType;
  schemaVersion: number;
  occurredAt: string;
  data: TData;
}

/** The JetStream stream that keeps every domain event. */
export const EVENTS_STREAM = 'SHOP_EVENTS';

/**
 * How long the stream keeps an event: well past the longest token lifetime (30 days), so services
 * that rebuild their token revocations from it on start never miss one that still matters. A
 * durable consumer that stays away longer than this misses what expired meanwhile.
 */
export const EVENTS_MAX_AGE_DAYS = 90;

/** Every event subject starts with this, so one stream captures them all. */
export const EVENTS_SUBJECT_PREFIX = 'shop.events.';

/** The NATS subject an event type is published on. */
export function eventSubject(type: string): string {
  return `${EVENTS_SUBJECT_PREFIX}${type}`;
}
