import 'reflect-metadata';
import type { DynamicModule } from '@nestjs/common';
import type { z } from 'zod';
import type { BaseServiceConfig } from '../config/service-config';
import { loadConfig } from '../config/service-config';
import { type ServiceContext, createServiceContext } from '../service-context';
import { bootstrapService } from './bootstrap-service';

/** A service's main.ts in one call: validated config from the environment, then start; a bad config exits 1. */
export function runService<TSchema extends z.ZodType<BaseServiceConfig>>(
  name: string,
  schema: TSchema,
  register: (context: ServiceContext<z.infer<TSchema>>) => DynamicModule,
): void {
  void (async () => {
    const context = createServiceContext(name, loadConfig(schema));
    await bootstrapService(context, register(context));
  })().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
