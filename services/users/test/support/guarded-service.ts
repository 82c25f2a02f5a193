import { Controller, type DynamicModule, Get, Module } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import {
  AdminOnly,
  type AuthenticatedUser,
  Authenticated,
  AuthModule,
  authConfigShape,
  baseServiceConfigSchema,
  CurrentUser,
  ServiceKitModule,
} from '@shop/service-kit';
import { startServiceApp } from '@shop/service-kit/testing';

@Controller('api/other')
class OtherController {
  @Get('mine')
  @Authenticated()
  mine(@CurrentUser() user: AuthenticatedUser): { id: string } {
    return { id: user.id };
  }

  @Get('admin')
  @AdminOnly()
  admin(): { ok: true } {
    return { ok: true };
  }
}

@Module({})
class OtherServiceModule {}

/**
 * Another service of the shop, knowing nothing of users but the public key and the events:
 * it adopts the guard from @shop/service-kit exactly as orders or products will.
 */
export async function startGuardedService(publicKeyFile: string): Promise<NestFastifyApplication> {
  const { app } = await startServiceApp({
    name: 'other',
    configSchema: baseServiceConfigSchema.extend(authConfigShape),
    module: (context): DynamicModule => ({
      module: OtherServiceModule,
      imports: [ServiceKitModule.forRoot(context), AuthModule.forRoot(context)],
      controllers: [OtherController],
    }),
    env: { JWT_PUBLIC_KEY_FILE: publicKeyFile },
  });
  return app;
}
