import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { JetStreamEvents, OutboxRelay, SERVICE_CONTEXT, type ServiceContext } from '@shop/service-kit';
import type { Model } from 'mongoose';
import { WALLET_MODEL, type WalletRecord } from './wallet.schema';

/** Publishes the `wallet.updated` events queued in wallets, retrying while NATS is away. */
@Injectable()
export class WalletEventsRelay implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly relay: OutboxRelay;

  constructor(
    @InjectModel(WALLET_MODEL) wallets: Model<WalletRecord>,
    private readonly events: JetStreamEvents,
    @Inject(SERVICE_CONTEXT) context: ServiceContext,
  ) {
    this.relay = new OutboxRelay({ models: [wallets], publisher: events, logger: context.logger });
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
