import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { JetStreamEvents, OutboxRelay, SERVICE_CONTEXT, type ServiceContext } from '@shop/service-kit';
import type { Model } from 'mongoose';
import { PRODUCT_MODEL, type ProductRecord } from './product.schema';

/** Publishes the events queued in products (`product.updated`, `product.deleted`). */
@Injectable()
export class ProductEventsRelay implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly relay: OutboxRelay;

  constructor(
    @InjectModel(PRODUCT_MODEL) products: Model<ProductRecord>,
    private readonly events: JetStreamEvents,
    @Inject(SERVICE_CONTEXT) context: ServiceContext,
  ) {
    this.relay = new OutboxRelay({ models: [products], publisher: events, logger: context.logger });
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
