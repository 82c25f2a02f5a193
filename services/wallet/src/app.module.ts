import { type DynamicModule, Module } from '@nestjs/common';
import { AuthModule, ServiceKitModule, type ServiceContext } from '@shop/service-kit';
import type { WalletConfig } from './config/wallet.config';
import { WalletsModule } from './wallets/wallets.module';

@Module({})
export class AppModule {
  static register(context: ServiceContext<WalletConfig>): DynamicModule {
    return {
      module: AppModule,
      imports: [ServiceKitModule.forRoot(context), AuthModule.forRoot(context), WalletsModule],
    };
  }
}
