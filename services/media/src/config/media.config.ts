import { authConfigShape, baseServiceConfigSchema } from '@shop/service-kit';
import { z } from 'zod';

export const mediaConfigSchema = baseServiceConfigSchema.extend({
  PORT: z.coerce.number().int().min(0).max(65535).default(3006),
  ...authConfigShape,
  /** Uploads one user may make in one fixed window. */
  UPLOADS_PER_WINDOW: z.coerce.number().int().min(1).max(100_000).default(30),
  UPLOAD_WINDOW_SECONDS: z.coerce.number().int().min(1).max(86_400).default(600),
  /** Largest width or height accepted, in pixels. */
  MAX_IMAGE_DIMENSION: z.coerce.number().int().min(1).max(65_535).default(6_000),
  /**
   * Largest width × height accepted, in megapixels, for all the frames of an animation together:
   * what a browser, and the service making a resized copy, must decode stays bounded.
   */
  MAX_IMAGE_MEGAPIXELS: z.coerce.number().min(0.000001).max(1_000).default(40),
  /** Answers `media.store-seed-image` (demo data); off in production unless a demo is wanted. */
  ACCEPT_SEED_IMAGES: z.stringbool().default(true),
});

export type MediaConfig = z.infer<typeof mediaConfigSchema>;
