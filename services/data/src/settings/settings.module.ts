import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { OutboxRelayProvider } from '@shop/service-kit';
import { SiteSettingsController } from './site-settings.controller';
import { SITE_SETTINGS_MODEL, siteSettingsSchema } from './site-settings.schema';
import { SiteSettingsService } from './site-settings.service';

/** The shop's site settings (name, currency, logo), their admin route and their `settings.updated` events. */
@Module({
  imports: [MongooseModule.forFeature([{ name: SITE_SETTINGS_MODEL, schema: siteSettingsSchema }])],
  controllers: [SiteSettingsController],
  providers: [OutboxRelayProvider.forModels(SITE_SETTINGS_MODEL), SiteSettingsService],
})
export class SettingsModule {}
