import { SITE_SETTINGS_LIMITS } from '@shop/contracts';
import { authConfigShape, baseServiceConfigSchema } from '@shop/service-kit';
import { z } from 'zod';

export const dataConfigSchema = baseServiceConfigSchema.extend({
  PORT: z.coerce.number().int().min(0).max(65535).default(3005),
  ...authConfigShape,
  /** The settings record written into an empty database. */
  DEFAULT_SITE_NAME: z.string().min(1).max(SITE_SETTINGS_LIMITS.siteName).default('Sentinel Arms'),
  DEFAULT_CURRENCY: z.string().min(1).max(SITE_SETTINGS_LIMITS.currency).default('$'),
  /**
   * Where every service's flagd provider syncs the fault flags from (flagd.sync.v1 over gRPC): 8015 in the
   * cluster and under npm start, 0 for any free port; unset, the flags are not served.
   */
  FLAGS_SYNC_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  /** How often each replica reads the flags' switches, to pass on one made through another replica. */
  FLAGS_POLL_MS: z.coerce.number().int().min(100).default(1_000),
});

export type DataConfig = z.infer<typeof dataConfigSchema>;
