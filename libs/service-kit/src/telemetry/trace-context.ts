import {
  type Context,
  ROOT_CONTEXT,
  type TextMapGetter,
  type TextMapSetter,
  context,
  propagation,
} from '@opentelemetry/api';
import type { MsgHdrs } from 'nats';

/** The W3C trace context of a moment, as headers (`traceparent`, `tracestate`): what an outbox record keeps. */
export type TraceCarrier = Record<string, string>;

/** The active trace context as a carrier, or undefined when there is none (no span active, SDK off). */
export function captureTraceContext(): TraceCarrier | undefined {
  const carrier: TraceCarrier = {};
  propagation.inject(context.active(), carrier);
  return carrier['traceparent'] ? carrier : undefined;
}

/** The context a carrier describes (its span as a remote parent), or the root context without one. */
export function restoreTraceContext(carrier: TraceCarrier | undefined): Context {
  return carrier ? propagation.extract(ROOT_CONTEXT, carrier) : ROOT_CONTEXT;
}

/** Reads trace headers from NATS message headers (absent on messages of callers without tracing). */
export const natsHeaderGetter: TextMapGetter<MsgHdrs | undefined> = {
  keys: (carrier) => carrier?.keys() ?? [],
  get: (carrier, key) => carrier?.get(key) || undefined,
};

/** Writes trace headers into NATS message headers. */
export const natsHeaderSetter: TextMapSetter<MsgHdrs> = {
  set: (carrier, key, value) => carrier.set(key, value),
};
