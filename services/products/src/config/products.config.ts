import { authConfigShape, baseServiceConfigSchema } from '@shop/service-kit';
import { z } from 'zod';

const milliseconds = (fallback: number) => z.coerce.number().int().min(100).max(3_600_000).default(fallback);

export const productsConfigSchema = baseServiceConfigSchema.extend({
  PORT: z.coerce.number().int().min(0).max(65535).default(3001),
  ...authConfigShape,
  /** Seeds the demo catalogue into an empty database, once. Off in production unless asked for. */
  SEED_DEMO_DATA: z.stringbool().default(true),
  /** How long the seed waits for the media service to store the demo images (services start in parallel). */
  SEED_MEDIA_WAIT_MS: milliseconds(60_000),
  /** A reservation that made no progress for this long is taken over by the recovery pass. */
  RESERVATION_STALE_AFTER_MS: milliseconds(30_000),
  /** How often the recovery pass looks for interrupted reservations. */
  RESERVATION_RECOVERY_INTERVAL_MS: milliseconds(30_000),
  /** Public catalogue answers kept in memory per replica; 0 turns the cache off. */
  CATALOG_CACHE_MAX_ENTRIES: z.coerce.number().int().min(0).max(1_000_000).default(2_000),
  /** Bytes those answers may take, compressed forms included. */
  CATALOG_CACHE_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(65_536)
    .default(32 * 2 ** 20),
  /** A backstop: answers are dropped on every change (events), this only bounds a missed one. */
  CATALOG_CACHE_MAX_AGE_MS: milliseconds(60_000),
  /** The shop's public origin, as shoppers reach it: the sitemap's and robots.txt's absolute URLs. */
  PUBLIC_URL: z.url({ protocol: /^https?$/ }).default('http://localhost:8000'),
});

export type ProductsConfig = z.infer<typeof productsConfigSchema>;
