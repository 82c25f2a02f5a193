import { z } from 'zod';
import { id, isoDate } from '../messages/fields';

/**
 * Every JetStream event carries an id (used as Nats-Msg-Id for de-duplication), the schema version
 * of its type's `data` (`EVENT_SCHEMA_VERSIONS`) and when it happened. Events published before
 * versions existed carry no `schemaVersion`: they have the first version's shape.
 */
const envelope = z.strictObject({
  id: id('Unique event id, also the Nats-Msg-Id the stream de-duplicates by'),
  type: z.string(),
  schemaVersion: z.int().min(1),
  occurredAt: isoDate('When it happened'),
});

export type EventEnvelope<TType extends string = string, TData = unknown> = Omit<
  z.infer<typeof envelope>,
  'type'
> & { type: TType; data: TData };

/** The envelope of one event type as it travels in this build: its type, version and `data`. */
export function eventEnvelopeOf(type: string, schemaVersion: number, data: z.ZodType) {
  return envelope.extend({
    type: z.literal(type),
    schemaVersion: z.literal(schemaVersion).meta({
      type: 'integer',
      description: 'The schema version of `data` (EVENT_SCHEMA_VERSIONS); none means the first',
    }),
    data,
  });
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
