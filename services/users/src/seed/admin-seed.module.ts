import { Module } from '@nestjs/common';
import { PasswordsModule } from '../passwords/passwords.module';
import { UsersModule } from '../users/users.module';
import { AdminSeedService } from './admin-seed.service';

/** Creates the configured admin account on start when it does not exist. */
@Module({
  imports: [UsersModule, PasswordsModule],
  providers: [AdminSeedService],
})
export class AdminSeedModule {}
