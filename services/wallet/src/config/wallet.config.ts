import { authConfigShape, baseServiceConfigSchema } from '@shop/service-kit';
import { z } from 'zod';

export const walletConfigSchema = baseServiceConfigSchema.extend({
  PORT: z.coerce.number().int().min(0).max(65535).default(3004),
  ...authConfigShape,
});

export type WalletConfig = z.infer<typeof walletConfigSchema>;
