import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { OutboxRelayProvider } from '@shop/service-kit';
import { FEATURE_FLAG_STATE_MODEL, featureFlagStateSchema } from './feature-flag-state.schema';
import { FeatureFlagsController } from './feature-flags.controller';
import { FeatureFlagsService } from './feature-flags.service';
import { FlagSyncServer } from './flag-sync.server';

/** The fault flags: their admin routes, their store and the flagd sync server every service's provider reads. */
@Module({
  imports: [MongooseModule.forFeature([{ name: FEATURE_FLAG_STATE_MODEL, schema: featureFlagStateSchema }])],
  controllers: [FeatureFlagsController],
  providers: [OutboxRelayProvider.forModels(FEATURE_FLAG_STATE_MODEL), FeatureFlagsService, FlagSyncServer],
  exports: [FlagSyncServer],
})
export class FlagsModule {}
