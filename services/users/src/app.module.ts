import { type DynamicModule, Module, type OnApplicationShutdown } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { AuthModule, ServiceKitModule, type ServiceContext } from '@shop/service-kit';
import { AccountsController } from './accounts/accounts.controller';
import { AccountsService } from './accounts/accounts.service';
import { Clock } from './clock/clock';
import type { UsersConfig } from './config/users.config';
import { FolderMailer, Mailer, SmtpMailer } from './mail/mailer';
import { PasswordHasher } from './passwords/password-hasher';
import { PasswordRecoveryController } from './recovery/password-recovery.controller';
import { PasswordRecoveryService } from './recovery/password-recovery.service';
import { AdminSeedService } from './seed/admin-seed.service';
import { ATTEMPT_WINDOW_MODEL, attemptWindowSchema } from './throttling/attempt-window.schema';
import { AttemptThrottle } from './throttling/attempt-throttle.service';
import { SIGNING_KEYS, loadSigningKeys, withLocalKeys } from './tokens/signing-keys';
import { TokenIssuer } from './tokens/token-issuer';
import { UserEventsRelay } from './users/user-events.relay';
import { USER_MODEL, userSchema } from './users/user.schema';
import { UsersAdminController } from './users/users-admin.controller';
import { UsersAdminService } from './users/users-admin.service';

/** Replacements for tests: a clock they can move, a mailer they can read. */
export interface UsersOverrides {
  clock?: Clock;
  mailer?: Mailer;
}

function createMailer({ config, logger }: ServiceContext<UsersConfig>): Mailer {
  if (config.SMTP_URL) return new SmtpMailer(config.SMTP_URL, config.MAIL_FROM);
  if (config.NODE_ENV === 'production') {
    // Allowed, for a development cluster, but reset codes then reach nobody: say so loudly.
    logger.warn(
      { outbox: config.MAIL_OUTBOX_DIR },
      'SMTP_URL is not set: e-mail (password-reset codes) is written to files, not sent',
    );
  }
  return new FolderMailer(config.MAIL_OUTBOX_DIR, config.MAIL_FROM);
}

@Module({})
export class AppModule implements OnApplicationShutdown {
  constructor(private readonly mailer: Mailer) {}

  static register(
    serviceContext: ServiceContext<UsersConfig>,
    overrides: UsersOverrides = {},
  ): DynamicModule {
    const context = { ...serviceContext, config: withLocalKeys(serviceContext.config) };
    const keys = loadSigningKeys(context.config);
    const mailer = overrides.mailer ?? createMailer(context);
    return {
      module: AppModule,
      imports: [
        ServiceKitModule.forRoot(context),
        AuthModule.forRoot(context),
        MongooseModule.forFeature([
          { name: USER_MODEL, schema: userSchema },
          { name: ATTEMPT_WINDOW_MODEL, schema: attemptWindowSchema },
        ]),
      ],
      controllers: [AccountsController, PasswordRecoveryController, UsersAdminController],
      providers: [
        { provide: SIGNING_KEYS, useValue: keys },
        { provide: Clock, useValue: overrides.clock ?? new Clock() },
        { provide: Mailer, useValue: mailer },
        PasswordHasher,
        TokenIssuer,
        AttemptThrottle,
        UserEventsRelay,
        AccountsService,
        PasswordRecoveryService,
        UsersAdminService,
        AdminSeedService,
      ],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.mailer.close();
  }
}
