import { z } from 'zod';
import { text } from '../messages/fields';

/**
 * Request/reply command answered only by the media service (queue group `media`): store a demo
 * image for a seed and answer its URL. Internal: NATS is reachable by the services only and the
 * gateway routes no HTTP to it. Idempotent by `seedKey`: the same key answers the same URL.
 * Refusals: 400 malformed, 403 when the media service does not accept seed images,
 * 415 not an accepted image. Versioned like every command (`COMMAND_SCHEMA_VERSIONS`).
 */
export const MEDIA_STORE_SEED_IMAGE = 'media.store-seed-image';

/**
 * `seedKey`: lower-case letters, digits and '-', e.g. `demo-glock-19-gen5-1`. `fileName`: the original
 * file name, e.g. `glock-19-gen5-1.png`; only its slug is kept. `contentBase64`: the image bytes. NATS
 * messages are at most 1 MB by default, so seed images stay small.
 */
export const storeSeedImageRequest = z.strictObject({
  seedKey: z.string().regex(/^[a-z0-9-]+$/),
  fileName: text(),
  contentBase64: z.string().meta({ contentEncoding: 'base64' }),
});
export type StoreSeedImageRequest = z.infer<typeof storeSeedImageRequest>;

/** A media URL (`/api/media/...`). */
export const storeSeedImageReply = z.strictObject({ url: z.string().regex(/^\/api\/media\//) });
export type StoreSeedImageReply = z.infer<typeof storeSeedImageReply>;
