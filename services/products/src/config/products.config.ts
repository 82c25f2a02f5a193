import { baseServiceConfigSchema } from '@shop/service-kit';
import { z } from 'zod';

export const productsConfigSchema = baseServiceConfigSchema.extend({
  PORT: z.coerce.number().int().min(0).max(65535).default(3001),
  /** Seeds the demo catalogue into an empty database, once. Off in production unless asked for. */
  SEED_DEMO_DATA: z.stringbool().default(true),
});

export type ProductsConfig = z.infer<typeof productsConfigSchema>;
