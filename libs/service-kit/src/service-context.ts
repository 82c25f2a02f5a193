import type { Logger } from 'pino';
import type { BaseServiceConfig } from './config/service-config';
import { createLogger } from './logging/logger';

/** What a service is started with: its name, its validated configuration and its root logger. */
export interface ServiceContext<TConfig extends BaseServiceConfig = BaseServiceConfig> {
  name: string;
  config: TConfig;
  logger: Logger;
}

/** Builds the context once, in main.ts or a test, and hands it to the module and the bootstrap. */
export function createServiceContext<TConfig extends BaseServiceConfig>(
  name: string,
  config: TConfig,
): ServiceContext<TConfig> {
  return { name, config, logger: createLogger(name, config.LOG_LEVEL) };
}

export const SERVICE_CONTEXT = Symbol('SERVICE_CONTEXT');
export const NATS_CONNECTION = Symbol('NATS_CONNECTION');
