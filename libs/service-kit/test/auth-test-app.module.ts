import { Controller, type DynamicModule, Get, Module } from '@nestjs/common';
import { AdminOnly, Authenticated, CurrentUser } from '../src/auth/auth.decorators';
import type { AuthConfig } from '../src/auth/auth.config';
import { AuthModule } from '../src/auth/auth.module';
import type { AuthenticatedUser } from '../src/auth/token-claims';
import type { BaseServiceConfig } from '../src/config/service-config';
import { ServiceKitModule } from '../src/service-kit.module';
import type { ServiceContext } from '../src/service-context';

@Controller('api/guarded')
class GuardedController {
  @Get('public')
  open(): { ok: true } {
    return { ok: true };
  }

  @Get('mine')
  @Authenticated()
  mine(@CurrentUser() user: AuthenticatedUser): AuthenticatedUser {
    return user;
  }

  @Get('admin')
  @AdminOnly()
  admin(@CurrentUser() user: AuthenticatedUser): { admin: string } {
    return { admin: user.id };
  }
}

/** A service that only adopts the kit's guard: what orders or products will look like. */
@Module({})
export class AuthTestAppModule {
  static register(context: ServiceContext<BaseServiceConfig & AuthConfig>): DynamicModule {
    return {
      module: AuthTestAppModule,
      imports: [ServiceKitModule.forRoot(context), AuthModule.forRoot(context)],
      controllers: [GuardedController],
    };
  }
}
