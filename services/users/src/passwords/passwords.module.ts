import { Module } from '@nestjs/common';
import { PasswordHasher } from './password-hasher';

/** Hashing of passwords and one-time codes. */
@Module({
  providers: [PasswordHasher],
  exports: [PasswordHasher],
})
export class PasswordsModule {}
