import { type DynamicModule, Module } from '@nestjs/common';
import { AuthModule, ServiceKitModule, type ServiceContext } from '@shop/service-kit';
import { ApiDocsModule } from './api-docs/api-docs.module';
import { AuditModule } from './audit/audit.module';
import type { DataConfig } from './config/data.config';
import { CspReportsModule } from './csp-reports/csp-reports.module';
import { FlagsModule } from './flags/flags.module';
import { SettingsModule } from './settings/settings.module';

@Module({})
export class AppModule {
  static register(context: ServiceContext<DataConfig>): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ServiceKitModule.forRoot(context),
        AuthModule.forRoot(context),
        SettingsModule,
        AuditModule,
        FlagsModule,
        CspReportsModule,
        ApiDocsModule,
      ],
    };
  }
}
