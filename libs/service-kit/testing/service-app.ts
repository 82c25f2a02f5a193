import type { DynamicModule } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { mongoUrlFor, uniqueDbName } from '@shop/testing';
import type { Logger } from 'pino';
import { inject } from 'vitest';
import type { z } from 'zod';
import { bootstrapService } from '../src/bootstrap/bootstrap-service';
import { type BaseServiceConfig, loadConfig } from '../src/config/service-config';
import { type ServiceContext, createServiceContext } from '../src/service-context';

export interface ServiceAppOptions<TSchema extends z.ZodType<BaseServiceConfig>> {
  /** The service's name: its logs, its NATS queue group, its database's prefix. */
  name: string;
  /** The prefix of its database's name when not `name`. */
  database?: string;
  configSchema: TSchema;
  /** The app's module for a context, as main.ts builds it: `(context) => AppModule.register(context)`. */
  module: (context: ServiceContext<z.infer<TSchema>>) => DynamicModule;
  /**
   * The service's environment besides what this sets (PORT, HOST, MONGO_URL, NATS_URL,
   * LOG_LEVEL=silent); `undefined` removes one of those.
   */
  env?: Record<string, string | undefined>;
  /** The NATS to use; the run's shared one (global set-up) when absent. */
  natsUrl?: string;
  /** The service's logger, for a test that reads its lines; one at `LOG_LEVEL` when absent. */
  logger?: Logger;
}

export interface ServiceApp<TConfig extends BaseServiceConfig = BaseServiceConfig> {
  app: NestFastifyApplication;
  context: ServiceContext<TConfig>;
  /** The service's database: a fresh one of its own, or the one `env` gave it (a second replica's). */
  mongoUrl: string;
}

/**
 * A service's app for a test, started as main.ts starts it: on a free port of 127.0.0.1, on a
 * database of its own on the run's database server, on the run's NATS, with silent logs. Close
 * `app` after.
 */
export async function startServiceApp<TSchema extends z.ZodType<BaseServiceConfig>>(
  options: ServiceAppOptions<TSchema>,
): Promise<ServiceApp<z.infer<TSchema>>> {
  const config = loadConfig(options.configSchema, {
    PORT: '0',
    HOST: '127.0.0.1',
    MONGO_URL: mongoUrlFor(inject('mongoUrl'), uniqueDbName(options.database ?? options.name)),
    NATS_URL: options.natsUrl ?? inject('natsUrl'),
    LOG_LEVEL: 'silent',
    ...options.env,
  });
  const context = options.logger
    ? { name: options.name, config, logger: options.logger }
    : createServiceContext(options.name, config);
  const app = await bootstrapService(context, options.module(context));
  return { app, context, mongoUrl: config.MONGO_URL };
}
