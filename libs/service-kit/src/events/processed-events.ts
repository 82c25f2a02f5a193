import type { Connection, Model } from 'mongoose';
import { Schema } from 'mongoose';

interface ProcessedEvent {
  _id: string;
  at: Date;
}

const processedEventSchema = new Schema<ProcessedEvent>({ _id: String, at: Date }, { versionKey: false });

/**
 * Remembers which events a consumer has finished, in the consumer's own database, so a redelivered
 * event changes nothing the second time. A crash between the handler and the record re-runs the
 * handler once: handlers should also be idempotent by themselves (set, not increment).
 */
export class ProcessedEvents {
  private readonly model: Model<ProcessedEvent>;

  constructor(connection: Connection) {
    this.model =
      (connection.models['ProcessedEvent'] as Model<ProcessedEvent> | undefined) ??
      connection.model<ProcessedEvent>('ProcessedEvent', processedEventSchema, 'processed_events');
  }

  /** Runs `work` unless this consumer already finished this event; answers whether it ran. */
  async handleOnce(consumer: string, eventId: string, work: () => Promise<void>): Promise<boolean> {
    const key = `${consumer}:${eventId}`;
    if (await this.model.exists({ _id: key })) return false;
    await work();
    await this.model.updateOne({ _id: key }, { $setOnInsert: { at: new Date() } }, { upsert: true });
    return true;
  }
}
