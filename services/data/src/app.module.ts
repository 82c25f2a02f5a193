import { type DynamicModule, Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { AuthModule, ServiceKitModule, type ServiceContext } from '@shop/service-kit';
import { ApiDocsController } from './api-docs/api-docs.controller';
import type { DataConfig } from './config/data.config';
import { CspReportParser } from './csp-reports/csp-report-parser';
import { CspReportsController } from './csp-reports/csp-reports.controller';
import { SettingsEventsRelay } from './settings/settings-events.relay';
import { SiteSettingsController } from './settings/site-settings.controller';
import { SITE_SETTINGS_MODEL, siteSettingsSchema } from './settings/site-settings.schema';
import { SiteSettingsService } from './settings/site-settings.service';

@Module({})
export class AppModule {
  static register(context: ServiceContext<DataConfig>): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ServiceKitModule.forRoot(context),
        AuthModule.forRoot(context),
        MongooseModule.forFeature([{ name: SITE_SETTINGS_MODEL, schema: siteSettingsSchema }]),
      ],
      controllers: [SiteSettingsController, CspReportsController, ApiDocsController],
      providers: [SettingsEventsRelay, SiteSettingsService, CspReportParser],
    };
  }
}
