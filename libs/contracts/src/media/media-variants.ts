// `GET /api/media/{id}/{name}?w={width}` answers the image resized to `width` pixels wide (never
// enlarged), as WebP when the request's `Accept` names `image/webp`, else in the original type. Each
// variant is made once and kept beside the original; like the original it is cached for good.
import { isMediaUrl } from './media-url';

/**
 * The widths a variant may have. A fixed, short list: every one is made and stored once per image,
 * so letting a client choose any width would let it fill the store.
 */
export const MEDIA_VARIANT_WIDTHS = [320, 480, 640, 960, 1280] as const;
export type MediaVariantWidth = (typeof MEDIA_VARIANT_WIDTHS)[number];

/** The query parameter that asks for a variant. */
export const MEDIA_WIDTH_PARAM = 'w';

export const MEDIA_VARIANT_MESSAGES = {
  badWidth: `Width (${MEDIA_WIDTH_PARAM}) must be one of ${MEDIA_VARIANT_WIDTHS.join(', ')}`,
} as const;

/** The width asked for by a `w` query value, or undefined when it is not one of the widths offered. */
export function parseMediaWidth(value: unknown): MediaVariantWidth | undefined {
  if (typeof value !== 'string' || !/^[1-9]\d{0,4}$/.test(value)) return undefined;
  const width = Number(value);
  return MEDIA_VARIANT_WIDTHS.find((offered) => offered === width);
}

/** The URL of one variant of a media URL (`isMediaUrl`). */
export function mediaVariantUrl(url: string, width: MediaVariantWidth): string {
  return `${url}?${MEDIA_WIDTH_PARAM}=${width}`;
}

/**
 * A `srcset` of every variant of a media URL (`/api/media/…?w=320 320w, …`), or undefined for a URL
 * the media service did not answer (another host's picture has no variants: keep its plain `src`).
 */
export function mediaSrcSet(url: string): string | undefined {
  if (!isMediaUrl(url)) return undefined;
  return MEDIA_VARIANT_WIDTHS.map((width) => `${mediaVariantUrl(url, width)} ${width}w`).join(', ');
}
