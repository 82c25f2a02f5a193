import { baseServiceConfigSchema } from '@shop/service-kit';
import { z } from 'zod';

export const dataConfigSchema = baseServiceConfigSchema.extend({
  PORT: z.coerce.number().int().min(0).max(65535).default(3005),
  /** The settings record written into an empty database. */
  DEFAULT_SITE_NAME: z.string().min(1).max(60).default('Sentinel Arms'),
  DEFAULT_CURRENCY: z.string().min(1).max(5).default('$'),
});

export type DataConfig = z.infer<typeof dataConfigSchema>;
