import { randomUUID } from 'node:crypto';
import type { EventEnvelope } from '@shop/contracts';

/** Builds an event envelope with a fresh id, ready for the outbox. */
export function newEvent<TType extends string, TData>(type: TType, data: TData): EventEnvelope<TType, TData> {
  return { id: randomUUID(), type, occurredAt: new Date().toISOString(), data };
}
