import { SITE_SETTINGS_LIMITS } from '@shop/contracts';
import { authConfigShape, baseServiceConfigSchema } from '@shop/service-kit';
import { z } from 'zod';

export const dataConfigSchema = baseServiceConfigSchema.extend({
  PORT: z.coerce.number().int().min(0).max(65535).default(3005),
  ...authConfigShape,
  /** The settings record written into an empty database. */
  DEFAULT_SITE_NAME: z.string().min(1).max(SITE_SETTINGS_LIMITS.siteName).default('Sentinel Arms'),
  DEFAULT_CURRENCY: z.string().min(1).max(SITE_SETTINGS_LIMITS.currency).default('$'),
});

export type DataConfig = z.infer<typeof dataConfigSchema>;
