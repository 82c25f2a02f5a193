import { type DynamicModule, Module } from '@nestjs/common';
import { PasswordsModule } from '../passwords/passwords.module';
import { ThrottlingModule } from '../throttling/throttling.module';
import type { SigningKeys } from '../tokens/signing-keys';
import { TokensModule } from '../tokens/tokens.module';
import { UsersModule } from '../users/users.module';
import { AccountsController } from './accounts.controller';
import { AccountsService } from './accounts.service';

/** Sign-up, sign-in and the signed-in user's own profile; answers each with a token. */
@Module({})
export class AccountsModule {
  static register(keys: SigningKeys): DynamicModule {
    return {
      module: AccountsModule,
      imports: [UsersModule, PasswordsModule, ThrottlingModule, TokensModule.register(keys)],
      controllers: [AccountsController],
      providers: [AccountsService],
    };
  }
}
