import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { JetStreamEvents, OutboxRelay, SERVICE_CONTEXT, type ServiceContext } from '@shop/service-kit';
import type { Model } from 'mongoose';
import { ORDER_MODEL, type OrderRecord } from './order.schema';

/**
 * Publishes the events queued in orders (`order.created`, `order.paid`, `order.delivered`,
 * `order.deleted`), retrying while NATS is away: they arrive once it is back.
 */
@Injectable()
export class OrderEventsRelay implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly relay: OutboxRelay;

  constructor(
    @InjectModel(ORDER_MODEL) orders: Model<OrderRecord>,
    private readonly events: JetStreamEvents,
    @Inject(SERVICE_CONTEXT) context: ServiceContext,
  ) {
    this.relay = new OutboxRelay({ models: [orders], publisher: events, logger: context.logger });
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.events.ensureStream();
    this.relay.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.relay.stop();
  }

  /** Publishes soon instead of at the next interval: call after a write that queued an event. */
  nudge(): void {
    this.relay.nudge();
  }
}
