import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { OutboxRelayProvider } from '@shop/service-kit';
import { WALLET_MODEL, walletSchema } from './wallet.schema';
import { WalletsController } from './wallets.controller';
import { WalletsService } from './wallets.service';

/** Where each payment method is paid to: the wallets, their admin route and their `wallet.updated` events. */
@Module({
  imports: [MongooseModule.forFeature([{ name: WALLET_MODEL, schema: walletSchema }])],
  controllers: [WalletsController],
  providers: [OutboxRelayProvider.forModels(WALLET_MODEL), WalletsService],
})
export class WalletsModule {}
