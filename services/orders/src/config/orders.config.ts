import { authConfigShape, baseServiceConfigSchema } from '@shop/service-kit';
import { z } from 'zod';

export const ordersConfigSchema = baseServiceConfigSchema
  .extend({
    PORT: z.coerce.number().int().min(0).max(65535).default(3002),
    ...authConfigShape,
    /** How long a retried POST with the same Idempotency-Key answers the first order. */
    IDEMPOTENCY_KEY_TTL_HOURS: z.coerce
      .number()
      .int()
      .min(1)
      .max(24 * 30)
      .default(24),
    /** How often stock that must go back to the catalogue (deleted orders, failed checkouts) is retried. */
    STOCK_RELEASE_RETRY_MS: z.coerce.number().int().min(100).max(600_000).default(5_000),
    /**
     * How long a checkout may take between asking for stock and storing its order. A reservation
     * whose order is not stored by then (a crash in between) is released. Must be well above
     * NATS_REQUEST_TIMEOUT_MS.
     */
    CHECKOUT_RECOVERY_MS: z.coerce.number().int().min(10_000).max(3_600_000).default(60_000),
  })
  .superRefine((config, ctx) => {
    if (config.CHECKOUT_RECOVERY_MS < 3 * config.NATS_REQUEST_TIMEOUT_MS + 5_000) {
      ctx.addIssue({
        code: 'custom',
        path: ['CHECKOUT_RECOVERY_MS'],
        message: 'must be at least 3 × NATS_REQUEST_TIMEOUT_MS + 5000',
      });
    }
  });

export type OrdersConfig = z.infer<typeof ordersConfigSchema>;
