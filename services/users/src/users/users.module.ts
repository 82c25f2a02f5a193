import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { OutboxRelayProvider } from '@shop/service-kit';
import { DeletedUsersPurger } from './deleted-users.purger';
import { USER_MODEL, userSchema } from './user.schema';
import { UsersAdminController } from './users-admin.controller';
import { UsersAdminService } from './users-admin.service';

/**
 * The accounts' records and their events: owns the user model and the relay that publishes the
 * events a write queued in a record (`user.deleted`, `user.promoted`, `user.password-reset`; other
 * features write through both), the purge of deleted accounts, and the admins' list, delete and promote.
 */
@Module({
  imports: [MongooseModule.forFeature([{ name: USER_MODEL, schema: userSchema }])],
  controllers: [UsersAdminController],
  providers: [OutboxRelayProvider.forModels(USER_MODEL), DeletedUsersPurger, UsersAdminService],
  exports: [MongooseModule, OutboxRelayProvider],
})
export class UsersModule {}
