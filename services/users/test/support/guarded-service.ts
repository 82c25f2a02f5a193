import { Controller, type DynamicModule, Get, Module } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import {
  AdminOnly,
  type AuthenticatedUser,
  Authenticated,
  AuthModule,
  authConfigShape,
  baseServiceConfigSchema,
  bootstrapService,
  createServiceContext,
  CurrentUser,
  loadConfig,
  ServiceKitModule,
} from '@shop/service-kit';
import { mongoUrlFor, uniqueDbName } from '@shop/testing';
import { inject } from 'vitest';

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
  const config = loadConfig(baseServiceConfigSchema.extend(authConfigShape), {
    PORT: '0',
    HOST: '127.0.0.1',
    MONGO_URL: mongoUrlFor(inject('mongoUrl'), uniqueDbName('other')),
    NATS_URL: inject('natsUrl'),
    LOG_LEVEL: 'silent',
    JWT_PUBLIC_KEY_FILE: publicKeyFile,
  });
  const context = createServiceContext('other', config);
  const module: DynamicModule = {
    module: OtherServiceModule,
    imports: [ServiceKitModule.forRoot(context), AuthModule.forRoot(context)],
    controllers: [OtherController],
  };
  return bootstrapService(context, module);
}
