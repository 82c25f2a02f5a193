import {
  type DynamicModule,
  Global,
  Inject,
  Module,
  type OnModuleDestroy,
  type OnModuleInit,
} from '@nestjs/common';
import type { NatsConnection } from 'nats';
import { JetStreamEvents } from '../events/jetstream-events';
import type { BaseServiceConfig } from '../config/service-config';
import { NATS_CONNECTION, type ServiceContext } from '../service-context';
import { type AuthConfig, loadPublicKey } from './auth.config';
import { AuthGuard } from './auth.guard';
import { TokenRevocations, type TokenRevocationsOptions } from './token-revocations';
import { TokenVerifier } from './token-verifier';

/**
 * Token checks for a service: import `AuthModule.forRoot(context)` next to `ServiceKitModule`
 * and put `@Authenticated()` or `@AdminOnly()` on routes. The module replays the revocation
 * history before the service starts listening and follows it while it runs.
 */
@Global()
@Module({})
export class AuthModule implements OnModuleInit, OnModuleDestroy {
  constructor(@Inject(TokenRevocations) private readonly revocations: TokenRevocations) {}

  static forRoot(
    context: ServiceContext<BaseServiceConfig & AuthConfig>,
    options: TokenRevocationsOptions = {},
  ): DynamicModule {
    const publicKey = loadPublicKey(context.config);
    return {
      module: AuthModule,
      providers: [
        {
          provide: TokenRevocations,
          useFactory: (nats: NatsConnection, events: JetStreamEvents) =>
            new TokenRevocations(nats, events, context.logger, options),
          inject: [NATS_CONNECTION, JetStreamEvents],
        },
        {
          provide: TokenVerifier,
          useFactory: (revocations: TokenRevocations) => new TokenVerifier(publicKey, revocations),
          inject: [TokenRevocations],
        },
        AuthGuard,
      ],
      exports: [TokenRevocations, TokenVerifier, AuthGuard],
    };
  }

  async onModuleInit(): Promise<void> {
    await this.revocations.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.revocations.stop();
  }
}
