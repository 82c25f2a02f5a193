import type { OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import type { Model } from 'mongoose';
import type { JetStreamEvents } from '../events/jetstream-events';
import type { ServiceContext } from '../service-context';
import { OutboxRelay } from './outbox-relay';

/**
 * A service's outbox relay as a NestJS provider: it starts once the app is up (after making sure the
 * events stream exists), retries while NATS is away, and stops on shutdown. A service subclasses it
 * with `@Injectable()` and passes the models whose schemas use `withOutbox`.
 */
export abstract class OutboxRelayProvider implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly relay: OutboxRelay;

  protected constructor(
    // The aggregates' document types differ, hence `any` (as in `OutboxRelayOptions`).
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    models: Model<any>[],
    private readonly events: JetStreamEvents,
    context: ServiceContext,
  ) {
    this.relay = new OutboxRelay({ models, publisher: events, logger: context.logger });
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
