import { type DynamicModule, Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { AuthModule, ServiceKitModule, type ServiceContext } from '@shop/service-kit';
import type { WalletConfig } from './config/wallet.config';
import { WalletEventsRelay } from './wallets/wallet-events.relay';
import { WALLET_MODEL, walletSchema } from './wallets/wallet.schema';
import { WalletsController } from './wallets/wallets.controller';
import { WalletsService } from './wallets/wallets.service';

@Module({})
export class AppModule {
  static register(context: ServiceContext<WalletConfig>): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ServiceKitModule.forRoot(context),
        AuthModule.forRoot(context),
        MongooseModule.forFeature([{ name: WALLET_MODEL, schema: walletSchema }]),
      ],
      controllers: [WalletsController],
      providers: [WalletEventsRelay, WalletsService],
    };
  }
}
