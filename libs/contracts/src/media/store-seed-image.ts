/**
 * Request/reply command answered only by the media service (queue group `media`): store a demo
 * image for a seed and answer its URL. Internal: NATS is reachable by the services only and the
 * gateway routes no HTTP to it. Idempotent by `seedKey`: the same key answers the same URL.
 * Refusals: 400 malformed, 403 when the media service does not accept seed images,
 * 415 not an accepted image. Versioned like every command (`COMMAND_SCHEMA_VERSIONS`).
 */
export const MEDIA_STORE_SEED_IMAGE = 'media.store-seed-image';

export interface StoreSeedImageRequest {
  /** Lower-case letters, digits and '-', e.g. `demo-glock-19-gen5-1`. */
  seedKey: string;
  /** The original file name, e.g. `glock-19-gen5-1.png`; only its slug is kept. */
  fileName: string;
  /** The image bytes, base64. NATS messages are at most 1 MB by default, so seed images stay small. */
  contentBase64: string;
}

export interface StoreSeedImageReply {
  /** A media URL (`/api/media/...`). */
  url: string;
}
