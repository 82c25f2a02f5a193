import { Inject, Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import {
  JetStreamEvents,
  OutboxRelayProvider,
  SERVICE_CONTEXT,
  type ServiceContext,
} from '@shop/service-kit';
import type { Model } from 'mongoose';
import { SITE_SETTINGS_MODEL, type SiteSettingsRecord } from './site-settings.schema';

/** Publishes the `settings.updated` events queued in settings records, retrying while NATS is away. */
@Injectable()
export class SettingsEventsRelay extends OutboxRelayProvider {
  constructor(
    @InjectModel(SITE_SETTINGS_MODEL) settings: Model<SiteSettingsRecord>,
    events: JetStreamEvents,
    @Inject(SERVICE_CONTEXT) context: ServiceContext,
  ) {
    super([settings], events, context);
  }
}
