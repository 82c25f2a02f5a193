import type { EventEnvelope } from '@shop/contracts';
import type { Model } from 'mongoose';
import type { Logger } from 'pino';
import type { OutboxEntry } from './outbox.schema';

export interface EventPublisher {
  publish(event: EventEnvelope): Promise<void>;
}

export interface OutboxRelayOptions {
  /** Aggregates whose schemas use `withOutbox`; their document types differ, hence `any`. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  models: Model<any>[];
  publisher: EventPublisher;
  logger: Logger;
  /** How often to look for pending events when nobody nudges; also the retry delay after a failure. */
  intervalMs?: number;
  batchSize?: number;
}

/**
 * Publishes the events waiting in aggregates' outboxes and removes each one only after the broker
 * acknowledged it, retrying until it does. A publish that succeeded just before a crash is sent
 * again on restart; JetStream drops it by its Nats-Msg-Id.
 */
export class OutboxRelay {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private again = false;
  private stopped = true;
  private readonly intervalMs: number;
  private readonly batchSize: number;

  constructor(private readonly options: OutboxRelayOptions) {
    this.intervalMs = options.intervalMs ?? 1_000;
    this.batchSize = options.batchSize ?? 100;
  }

  start(): void {
    this.stopped = false;
    this.nudge();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  /** Asks for a pass soon, e.g. right after a write queued an event. */
  nudge(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    this.running = this.pass()
      .then(() => undefined)
      .catch((error: unknown) =>
        this.options.logger.warn({ err: error }, 'outbox relay pass failed, will retry'),
      )
      .finally(() => {
        this.running = undefined;
        if (this.stopped) return;
        if (this.again) {
          this.again = false;
          this.nudge();
        } else {
          this.timer = setTimeout(() => this.nudge(), this.intervalMs);
          this.timer.unref();
        }
      });
  }

  /** One sweep over every model; answers how many events were published. */
  async pass(): Promise<number> {
    let published = 0;
    for (const model of this.options.models) {
      const pending = await model
        .find({ 'outbox.0': { $exists: true } })
        .select('+outbox')
        .limit(this.batchSize)
        .lean<{ _id: unknown; outbox: OutboxEntry[] }[]>();
      for (const doc of pending) {
        for (const entry of doc.outbox) {
          await this.options.publisher.publish({
            id: entry.id,
            type: entry.type,
            occurredAt: entry.occurredAt,
            data: entry.data,
          });
          // Publishing is not a change of the aggregate: its updatedAt stays as the write left it.
          await model.updateOne(
            { _id: doc._id },
            { $pull: { outbox: { id: entry.id } } },
            { timestamps: false },
          );
          published += 1;
        }
      }
    }
    return published;
  }
}
