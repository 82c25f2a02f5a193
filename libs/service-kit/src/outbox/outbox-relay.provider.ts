import type { FactoryProvider, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { getModelToken } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import { JetStreamEvents } from '../events/jetstream-events';
import { SERVICE_CONTEXT, type ServiceContext } from '../service-context';
import { OutboxRelay } from './outbox-relay';

/**
 * A service's outbox relay as a NestJS provider: it starts once the app is up (after making sure the
 * events stream exists), retries while NATS is away, and stops on shutdown. A module provides it
 * with `OutboxRelayProvider.forModels(ORDER_MODEL)`, naming the models whose schemas use
 * `withOutbox`, and its services inject `OutboxRelayProvider` to `nudge` it after a write.
 */
export class OutboxRelayProvider implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly relay: OutboxRelay;

  constructor(
    // The aggregates' document types differ, hence `any` (as in `OutboxRelayOptions`).
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    models: Model<any>[],
    private readonly events: JetStreamEvents,
    context: ServiceContext,
  ) {
    this.relay = new OutboxRelay({ models, publisher: events, logger: context.logger });
  }

  /** The provider of the relay over the models registered (`MongooseModule.forFeature`) under these names. */
  static forModels(...modelNames: string[]): FactoryProvider<OutboxRelayProvider> {
    return {
      provide: OutboxRelayProvider,
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      useFactory: (events: JetStreamEvents, context: ServiceContext, ...models: Model<any>[]) =>
        new OutboxRelayProvider(models, events, context),
      inject: [JetStreamEvents, SERVICE_CONTEXT, ...modelNames.map((name) => getModelToken(name))],
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
}
