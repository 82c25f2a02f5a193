import {
  type Attributes,
  type Context,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  context,
  propagation,
  trace,
} from '@opentelemetry/api';
import { type MsgHdrs, headers as natsHeaders } from 'nats';
import { natsHeaderGetter, natsHeaderSetter } from './trace-context';

const tracer = () => trace.getTracer('@shop/service-kit/nats');

const messagingAttributes = (subject: string, operation: 'send' | 'process'): Attributes => ({
  'messaging.system': 'nats',
  'messaging.destination.name': subject,
  'messaging.operation.type': operation,
  'messaging.operation.name': operation === 'send' ? 'publish' : 'process',
});

/** A message about to leave: its PRODUCER span and the headers that carry the span's context. */
export interface OutgoingMessage {
  span: Span;
  headers: MsgHdrs;
}

/**
 * Starts the PRODUCER span `<subject> publish` under the active context and writes its context
 * (`traceparent`, `tracestate`) into fresh NATS headers for the message. End the span when the
 * broker (or the responder) answered: see `endSpan`.
 */
export function startPublish(subject: string, attributes: Attributes = {}): OutgoingMessage {
  const span = tracer().startSpan(`${subject} publish`, {
    kind: SpanKind.PRODUCER,
    attributes: { ...messagingAttributes(subject, 'send'), ...attributes },
  });
  const headers = natsHeaders();
  propagation.inject(trace.setSpan(context.active(), span), headers, natsHeaderSetter);
  return { span, headers };
}

/**
 * Starts the CONSUMER span `<subject> process` as a child of the context the message's headers
 * carry (a message without them starts a new trace), and answers the context to handle it in.
 */
export function startProcess(
  subject: string,
  headers: MsgHdrs | undefined,
  attributes: Attributes = {},
): { span: Span; context: Context } {
  // From the root: the broker's socket callbacks run in whatever context the connection was made in.
  const parent = propagation.extract(ROOT_CONTEXT, headers, natsHeaderGetter);
  const span = tracer().startSpan(
    `${subject} process`,
    { kind: SpanKind.CONSUMER, attributes: { ...messagingAttributes(subject, 'process'), ...attributes } },
    parent,
  );
  return { span, context: trace.setSpan(parent, span) };
}

/** Ends a span, marking it failed with the error's message when there is one. */
export function endSpan(span: Span, error?: unknown): void {
  if (error !== undefined) {
    span.setStatus({
      code: SpanStatusCode.ERROR,
      message: error instanceof Error ? error.message : String(error),
    });
    if (error instanceof Error) span.recordException(error);
  }
  span.end();
}
