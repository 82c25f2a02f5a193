import type { Span } from '@opentelemetry/api';
import { context } from '@opentelemetry/api';
import { type NatsContext, ServerNats } from '@nestjs/microservices';
import type { Msg } from 'nats';
import { endSpan, startProcess } from '../telemetry/nats-spans';

interface ResponsePacket {
  err?: unknown;
}

/**
 * Nest's NATS transport with trace context: each command is handled inside a CONSUMER span
 * `<subject> process`, a child of the caller's PRODUCER span (its `traceparent` header), so the
 * handler's database calls join the caller's trace. The span ends when the reply leaves, marked
 * failed for an error or a 5xx refusal (a 4xx refusal is an answer: its status is an attribute).
 */
export class TracedServerNats extends ServerNats {
  private readonly spans = new WeakMap<Msg, Span>();

  override async handleMessage(channel: string, natsMsg: Msg): Promise<unknown> {
    const { span, context: handling } = startProcess(natsMsg.subject, natsMsg.headers);
    this.spans.set(natsMsg, span);
    // A message nobody answers (an event, not a command) gets no reply: its span ends with the handler.
    const done = context.with(handling, () => super.handleMessage(channel, natsMsg));
    if (!natsMsg.reply)
      void done.then(
        () => endSpan(span),
        (error: unknown) => endSpan(span, error),
      );
    return done;
  }

  override getPublisher(natsMsg: Msg, id: string, ctx: NatsContext): (response: unknown) => unknown {
    const publish = super.getPublisher(natsMsg, id, ctx);
    return (response: unknown) => {
      const span = this.spans.get(natsMsg);
      if (span) {
        // A streamed answer publishes more than once; its first packet ends the span.
        this.spans.delete(natsMsg);
        const error = (response as ResponsePacket | null)?.err;
        const status = (error as { status?: unknown } | null | undefined)?.status;
        if (typeof status === 'number') span.setAttribute('shop.refusal.status', status);
        // A refusal (out of stock, not found) is an answer, not a failure of the responder.
        const failed = error !== undefined && error !== null && !(typeof status === 'number' && status < 500);
        endSpan(span, failed ? describe(error) : undefined);
      }
      return publish(response);
    };
  }
}

function describe(error: unknown): string {
  if (typeof error === 'string') return error;
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === 'string' ? message : JSON.stringify(error);
}
