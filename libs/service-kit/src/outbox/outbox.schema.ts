import type { EventEnvelope } from '@shop/contracts';
import { Schema } from 'mongoose';
import { type TraceCarrier, captureTraceContext } from '../telemetry/trace-context';

/** A pending event stored inside the aggregate it describes, written in the same update as the change. */
export interface OutboxEntry {
  id: string;
  type: string;
  /** Absent on entries queued by a build from before versions: those have the first version's shape. */
  schemaVersion?: number;
  occurredAt: string;
  data: unknown;
  /**
   * The W3C trace context (`traceparent`, `tracestate`) active when the event was queued: the relay
   * publishes under it, so the event joins the trace of the request that caused it.
   */
  traceContext?: TraceCarrier;
}

const outboxEntrySchema = new Schema<OutboxEntry>(
  {
    id: { type: String, required: true },
    type: { type: String, required: true },
    schemaVersion: Number,
    occurredAt: String,
    data: {},
    traceContext: {},
  },
  // An event's data is kept as it was given: an empty object in it ({} fields changed) is data too.
  { _id: false, minimize: false },
);

/**
 * Adds the in-document outbox to an aggregate's schema. Without multi-document transactions this
 * is how a change and its event are written atomically (docs/decisions/0003-events-and-outbox.md).
 */
export function withOutbox(schema: Schema): void {
  schema.add({ outbox: { type: [outboxEntrySchema], default: [], select: false } });
}

/**
 * The update fragment that queues an event with a change: `{ $set: ..., ...outboxPush(event) }`.
 * The entry keeps the active trace context (see `OutboxEntry.traceContext`).
 */
export function outboxPush(event: EventEnvelope): { $push: { outbox: OutboxEntry } } {
  return { $push: { outbox: outboxEntry(event) } };
}

/** The outbox entry of an event, with the active trace context. */
export function outboxEntry(event: EventEnvelope): OutboxEntry {
  const traceContext = captureTraceContext();
  return {
    id: event.id,
    type: event.type,
    schemaVersion: event.schemaVersion,
    occurredAt: event.occurredAt,
    data: event.data,
    ...(traceContext ? { traceContext } : {}),
  };
}
