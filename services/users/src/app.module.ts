import { type DynamicModule, Module } from '@nestjs/common';
import { AuthModule, ServiceKitModule, type ServiceContext } from '@shop/service-kit';
import { AccountsModule } from './accounts/accounts.module';
import type { Clock } from './clock/clock';
import { ClockModule } from './clock/clock.module';
import type { UsersConfig } from './config/users.config';
import { FaultsModule } from './faults/memory-leak.fault';
import type { Mailer } from './mail/mailer';
import { OrderMailModule } from './order-mail/order-mail.module';
import { PasswordRecoveryModule } from './recovery/password-recovery.module';
import { AdminSeedModule } from './seed/admin-seed.module';
import { loadSigningKeys, withLocalKeys } from './tokens/signing-keys';
import { UsersModule } from './users/users.module';

/** Replacements for tests: a clock they can move, a mailer they can read. */
export interface UsersOverrides {
  clock?: Clock;
  mailer?: Mailer;
}

/** The users service: the kit's plumbing and one module per feature. */
@Module({})
export class AppModule {
  static register(
    serviceContext: ServiceContext<UsersConfig>,
    overrides: UsersOverrides = {},
  ): DynamicModule {
    const context = { ...serviceContext, config: withLocalKeys(serviceContext.config) };
    return {
      module: AppModule,
      imports: [
        ServiceKitModule.forRoot(context),
        AuthModule.forRoot(context),
        ClockModule.register(overrides.clock),
        AccountsModule.register(loadSigningKeys(context.config)),
        PasswordRecoveryModule.register(overrides.mailer),
        OrderMailModule.register(overrides.mailer),
        UsersModule,
        AdminSeedModule,
        FaultsModule,
      ],
    };
  }
}
