import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { SiteSettings } from '@shop/contracts';
import { SERVICE_CONTEXT, type ServiceContext } from '@shop/service-kit';
import type { Model } from 'mongoose';
import type { DataConfig } from '../config/data.config';
import { SITE_SETTINGS_MODEL, type SiteSettingsRecord } from './site-settings.schema';

const SEED_KEY = 'default-settings';

@Injectable()
export class SiteSettingsService implements OnApplicationBootstrap {
  constructor(
    @InjectModel(SITE_SETTINGS_MODEL) private readonly settings: Model<SiteSettingsRecord>,
    @Inject(SERVICE_CONTEXT) private readonly context: ServiceContext<DataConfig>,
  ) {}

  /** Every settings record, oldest first: the storefront uses the first. */
  async all(): Promise<SiteSettings[]> {
    const docs = await this.settings
      .find()
      .select('siteName currency logo')
      .sort({ _id: 1 })
      .lean<(SiteSettingsRecord & { _id: unknown })[]>();
    return docs.map((doc) => ({ ...doc, _id: String(doc._id) }));
  }

  /** Writes the default record into an empty database; a fixed key keeps replicas from writing two. */
  async onApplicationBootstrap(): Promise<void> {
    const { DEFAULT_SITE_NAME, DEFAULT_CURRENCY } = this.context.config;
    await this.settings.collection.updateOne(
      { seedKey: SEED_KEY },
      {
        $setOnInsert: {
          siteName: DEFAULT_SITE_NAME,
          currency: DEFAULT_CURRENCY,
          logo: '',
          createdAt: new Date(),
        },
      },
      { upsert: true },
    );
  }
}
