import type { FactoryProvider, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { getModelToken } from '@nestjs/mongoose';
import type { EventEnvelope } from '@shop/contracts';
import type { Model, QueryFilter, QueryOptions, UpdateQuery } from 'mongoose';
import { JetStreamEvents } from '../events/jetstream-events';
import { FeatureFlags } from '../flags/feature-flags';
import { SERVICE_CONTEXT, type ServiceContext } from '../service-context';
import { OutboxRelay } from './outbox-relay';
import { outboxEntry } from './outbox.schema';

/**
 * A service's outbox relay as a NestJS provider: it starts once the app is up (after making sure the
 * events stream exists), retries while NATS is away, and stops on shutdown. A module provides it
 * with `OutboxRelayProvider.forModels(ORDER_MODEL)`, naming the models whose schemas use
 * `withOutbox`, and its services inject `OutboxRelayProvider` to write a change with its event
 * (`updateWithEvent`), or to `nudge` it after a write of their own that queued one.
 */
export class OutboxRelayProvider implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly relay: OutboxRelay;

  constructor(
    // The aggregates' document types differ, hence `any` (as in `OutboxRelayOptions`).
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    models: Model<any>[],
    private readonly events: JetStreamEvents,
    context: ServiceContext,
    flags: FeatureFlags,
  ) {
    this.relay = new OutboxRelay({
      models,
      publisher: events,
      logger: context.logger,
      paused: () => flags.boolean('outboxRelayPaused'),
    });
  }

  /** The provider of the relay over the models registered (`MongooseModule.forFeature`) under these names. */
  static forModels(...modelNames: string[]): FactoryProvider<OutboxRelayProvider> {
    return {
      provide: OutboxRelayProvider,
      useFactory: (
        events: JetStreamEvents,
        context: ServiceContext,
        flags: FeatureFlags,
        // eslint-disable-next-line @typescript-eslint/no-explicit-any
        ...models: Model<any>[]
      ) => new OutboxRelayProvider(models, events, context, flags),
      inject: [
        JetStreamEvents,
        SERVICE_CONTEXT,
        FeatureFlags,
        ...modelNames.map((name) => getModelToken(name)),
      ],
    };
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.events.ensureStream();
    this.relay.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.relay.stop();
  }

  /**
   * Publishes soon instead of at the next interval: call after a write that queued an event, with
   * the written document's id where known (the pass then reads that document, not the collection).
   */
  nudge(id?: unknown): void {
    this.relay.nudge(id);
  }

  /**
   * Changes the one document `filter` matches and queues `event` (or several, in their order) in its
   * outbox in the same write (`findOneAndUpdate` with the outbox's `$push`: the change and its events
   * are stored together or not at all), then nudges the relay at that document. Answers the document,
   * lean, as `options` ask for it (`returnDocument`, `projection`), or null when none matched: then
   * nothing was written. Without an event it is the update alone. `update` may `$push` to other arrays.
   */
  async updateWithEvent<TDoc, TResult = TDoc>(
    model: Model<TDoc>,
    filter: QueryFilter<TDoc>,
    update: UpdateQuery<TDoc>,
    event: EventEnvelope | readonly EventEnvelope[] | undefined,
    options: QueryOptions<TDoc> = {},
  ): Promise<TResult | null> {
    const events = event === undefined ? [] : Array.isArray(event) ? event : [event as EventEnvelope];
    const written = await model
      .findOneAndUpdate(filter, events.length > 0 ? withOutboxPush(update, events) : update, options)
      .lean<TResult>();
    // A projection without the id leaves the relay to sweep: slower, never lost.
    if (written && events.length > 0) this.nudge((written as { _id?: unknown })._id);
    return written;
  }
}

/** The update with the events pushed to the outbox beside whatever else it pushes. */
function withOutboxPush<TDoc>(
  update: UpdateQuery<TDoc>,
  events: readonly EventEnvelope[],
): UpdateQuery<TDoc> {
  const outbox = events.length === 1 ? outboxEntry(events[0]!) : { $each: events.map(outboxEntry) };
  const pushed = (update as { $push?: Record<string, unknown> }).$push;
  return { ...update, $push: { ...pushed, outbox } } as UpdateQuery<TDoc>;
}
