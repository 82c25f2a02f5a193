import {
  ConflictException,
  Inject,
  Injectable,
  NotFoundException,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import {
  DEFAULT_LOW_STOCK_THRESHOLD,
  LOW_STOCK_THRESHOLD_UPDATED,
  type LowStockThresholdUpdatedEvent,
  SETTINGS_UPDATED,
  type SettingsUpdatedEvent,
  type SiteSettings,
} from '@shop/contracts';
import {
  type AuthenticatedUser,
  OutboxRelayProvider,
  SERVICE_CONTEXT,
  type ServiceContext,
  adminActionEvent,
  newEvent,
  stillHolding,
} from '@shop/service-kit';
import type { Model } from 'mongoose';
import type { DataConfig } from '../config/data.config';
import type { UpdateSiteSettingsDto } from './dto/update-site-settings.dto';
import { SITE_SETTINGS_MODEL, type SiteSettingsRecord } from './site-settings.schema';

const SEED_KEY = 'default-settings';
const SETTINGS_FIELDS = '_id siteName currency logo lowStockThreshold';

function toSiteSettings(record: SiteSettingsRecord): SiteSettings {
  return {
    _id: record._id.toHexString(),
    siteName: record.siteName,
    currency: record.currency,
    logo: record.logo ?? '',
    lowStockThreshold: record.lowStockThreshold ?? DEFAULT_LOW_STOCK_THRESHOLD,
  };
}

@Injectable()
export class SiteSettingsService implements OnApplicationBootstrap {
  constructor(
    @InjectModel(SITE_SETTINGS_MODEL) private readonly settings: Model<SiteSettingsRecord>,
    private readonly relay: OutboxRelayProvider,
    @Inject(SERVICE_CONTEXT) private readonly context: ServiceContext<DataConfig>,
  ) {}

  /** Every settings record, oldest first: the storefront uses the first. */
  async all(): Promise<SiteSettings[]> {
    const docs = await this.settings
      .find()
      .select(SETTINGS_FIELDS)
      .sort({ _id: 1 })
      .lean<SiteSettingsRecord[]>();
    return docs.map(toSiteSettings);
  }

  /**
   * An admin changes a settings record; `settings.updated` and `settings.low-stock-threshold.updated` go
   * out with the change.
   */
  async update(admin: AuthenticatedUser, request: UpdateSiteSettingsDto): Promise<SiteSettings> {
    const { id, siteName, currency, logo } = request;
    const stored = await this.settings
      .findById(id)
      .select('siteName currency logo lowStockThreshold')
      .lean<SiteSettingsRecord>();
    if (!stored) throw new NotFoundException('Settings not found');
    // A client that does not send the threshold (one written before it existed) keeps the stored one.
    const lowStockThreshold =
      request.lowStockThreshold ?? stored.lowStockThreshold ?? DEFAULT_LOW_STOCK_THRESHOLD;
    const before = {
      siteName: stored.siteName,
      currency: stored.currency,
      logo: stored.logo,
      lowStockThreshold: stored.lowStockThreshold,
    };
    const audit = adminActionEvent({
      actor: admin,
      action: 'settings.updated',
      target: { type: 'settings', id: id.toLowerCase(), label: siteName },
      before,
      after: { siteName, currency, logo, lowStockThreshold },
    });
    const event: SettingsUpdatedEvent = newEvent(SETTINGS_UPDATED, {
      settingsId: id.toLowerCase(),
      siteName,
      currency,
      logo,
    });
    const thresholdEvent: LowStockThresholdUpdatedEvent = newEvent(LOW_STOCK_THRESHOLD_UPDATED, {
      settingsId: id.toLowerCase(),
      lowStockThreshold,
    });
    const updated = await this.relay.updateWithEvent(
      this.settings,
      // Only while it holds what was read: the audit trail's "before" is what this change replaced.
      { _id: id, ...stillHolding(before) },
      { $set: { siteName, currency, logo, lowStockThreshold } },
      [event, thresholdEvent, audit],
      { returnDocument: 'after', projection: SETTINGS_FIELDS, runValidators: true },
    );
    if (!updated) throw new ConflictException('The settings changed meanwhile, please try again');
    return toSiteSettings(updated);
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
          lowStockThreshold: DEFAULT_LOW_STOCK_THRESHOLD,
          createdAt: new Date(),
        },
      },
      { upsert: true },
    );
  }
}
