/** Every JetStream event carries an id (used as Nats-Msg-Id for de-duplication) and when it happened. */
export interface EventEnvelope<TType extends string = string, TData = unknown> {
  id: string;
  type: TType;
  occurredAt: string;
  data: TData;
}

/** The JetStream stream that keeps every domain event. */
export const EVENTS_STREAM = 'SHOP_EVENTS';

/** Every event subject starts with this, so one stream captures them all. */
export const EVENTS_SUBJECT_PREFIX = 'shop.events.';

/** The NATS subject an event type is published on. */
export function eventSubject(type: string): string {
  return `${EVENTS_SUBJECT_PREFIX}${type}`;
}
