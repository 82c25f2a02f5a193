import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { JetStreamEvents, OutboxRelay, SERVICE_CONTEXT, type ServiceContext } from '@shop/service-kit';
import type { Model } from 'mongoose';
import { SITE_SETTINGS_MODEL, type SiteSettingsRecord } from './site-settings.schema';

/** Publishes the `settings.updated` events queued in settings records, retrying while NATS is away. */
@Injectable()
export class SettingsEventsRelay implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly relay: OutboxRelay;

  constructor(
    @InjectModel(SITE_SETTINGS_MODEL) settings: Model<SiteSettingsRecord>,
    private readonly events: JetStreamEvents,
    @Inject(SERVICE_CONTEXT) context: ServiceContext,
  ) {
    this.relay = new OutboxRelay({ models: [settings], publisher: events, logger: context.logger });
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
