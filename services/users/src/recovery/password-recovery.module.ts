import { type DynamicModule, Module } from '@nestjs/common';
import { MailModule } from '../mail/mail.module';
import type { Mailer } from '../mail/mailer';
import { PasswordsModule } from '../passwords/passwords.module';
import { ThrottlingModule } from '../throttling/throttling.module';
import { UsersModule } from '../users/users.module';
import { PasswordRecoveryController } from './password-recovery.controller';
import { PasswordRecoveryService } from './password-recovery.service';

/** Forgot / reset password with a one-time code sent by e-mail. */
@Module({})
export class PasswordRecoveryModule {
  /** `mailer` replaces the configured one (tests read what was sent). */
  static register(mailer?: Mailer): DynamicModule {
    return {
      module: PasswordRecoveryModule,
      imports: [UsersModule, PasswordsModule, ThrottlingModule, MailModule.register(mailer)],
      controllers: [PasswordRecoveryController],
      providers: [PasswordRecoveryService],
    };
  }
}
