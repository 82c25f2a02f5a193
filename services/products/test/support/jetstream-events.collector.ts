import { EVENTS_STREAM, type EventEnvelope, eventSubject } from '@shop/contracts';
import { type ConsumerMessages, DeliverPolicy, JSONCodec, connect } from 'nats';

export interface EventCollector {
  events: EventEnvelope[];
  /** Resolves with the first collected event that satisfies `match`, or rejects after `ms`. */
  waitFor(match: (event: EventEnvelope) => boolean, ms?: number): Promise<EventEnvelope>;
  stop(): Promise<void>;
}

/** Reads the events stream from now on, as any consumer would, keeping the given types. */
export async function collectEvents(natsUrl: string, types: string[]): Promise<EventCollector> {
  const connection = await connect({ servers: natsUrl });
  const codec = JSONCodec<EventEnvelope>();
  const events: EventEnvelope[] = [];
  let messages: ConsumerMessages | undefined;
  try {
    const consumer = await connection.jetstream().consumers.get(EVENTS_STREAM, {
      filterSubjects: types.map(eventSubject),
      deliver_policy: DeliverPolicy.New,
    });
    messages = await consumer.consume();
  } catch (error) {
    await connection.close();
    throw error;
  }
  const reading = (async () => {
    for await (const message of messages) events.push(codec.decode(message.data));
  })();
  return {
    events,
    async waitFor(match, ms = 5_000) {
      const deadline = Date.now() + ms;
      for (;;) {
        const found = events.find(match);
        if (found) return found;
        if (Date.now() > deadline) throw new Error('the event did not arrive in time');
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
    async stop() {
      await messages?.close();
      await reading;
      await connection.close();
    },
  };
}
