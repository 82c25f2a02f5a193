import { randomUUID } from 'node:crypto';
import { type EventEnvelope, eventSchemaVersion } from '@shop/contracts';

/** Builds an event envelope with a fresh id and its type's current schema version, ready for the outbox. */
export function newEvent<TType extends string, TData>(type: TType, data: TData): EventEnvelope<TType, TData> {
  return {
    id: randomUUID(),
    type,
    schemaVersion: eventSchemaVersion(type),
    occurredAt: new Date().toISOString(),
    data,
  };
}
