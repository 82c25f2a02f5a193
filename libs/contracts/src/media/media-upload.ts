import type { Schema } from '../http/api-types';

// `POST /api/media` (signed in; multipart, one field `file`) stores one image and answers `{ url }`;
// `GET /api/media/{id}/{name}` serves it with its true type and immutable caching. `MEDIA_API` and
// `isMediaUrl` are in media-url.ts.

/** The multipart field that carries the image. */
export const MEDIA_UPLOAD_FIELD = 'file';

/** 3 MiB: the largest image accepted (docs/product/rules.md, "Images"). */
export const MEDIA_MAX_BYTES = 3 * 1024 * 1024;

/** Judged by the bytes, never by the file name or the declared type. */
export const MEDIA_ACCEPTED_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const;
export type MediaContentType = (typeof MEDIA_ACCEPTED_TYPES)[number];

export const MEDIA_MESSAGES = {
  tooLarge: 'Image too large (3 MB max)',
  unsupportedType: 'Only PNG, JPEG, WebP and GIF images are accepted',
  notFound: 'Image not found',
  tooManyUploads: 'Too many uploads, please try again later',
} as const;

/** `/api/media/<24 hex id>/<timestamp>-<slug>.<png|jpg|webp|gif>`; `isMediaUrl` accepts it. */
export type UploadImageResponse = Schema<'UploadImageBody'>;
