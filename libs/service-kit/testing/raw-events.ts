import { eventSubject } from '@shop/contracts';
import { JSONCodec, type NatsConnection } from 'nats';

const codec = JSONCodec<unknown>();

/**
 * Publishes an envelope as it is, the way a relay publishes one (`JetStreamEvents.publish`): on its
 * type's subject, with `msgId` (the event id) as Nats-Msg-Id. For events of shapes this build would
 * not write (another build's); answers the stream sequence.
 */
export async function publishRawEvent(
  nats: NatsConnection,
  envelope: { id: string; type: string; [field: string]: unknown },
  msgId = envelope.id,
): Promise<number> {
  const ack = await nats
    .jetstream()
    .publish(eventSubject(envelope.type), codec.encode(envelope), { msgID: msgId });
  return ack.seq;
}
