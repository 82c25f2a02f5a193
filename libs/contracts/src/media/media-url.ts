/** Where uploaded images are served, relative to the site root (`POST api/media` answers URLs under it). */
export const MEDIA_API = '/api/media';

/** Longest media URL accepted anywhere one is stored (receipt, QR code, logo, product image). */
export const MEDIA_URL_MAX_LENGTH = 300;

// One path segment of URL-safe characters: what encodeURIComponent leaves alone, or a %XX escape.
const MEDIA_URL = /^\/api\/media\/[0-9a-fA-F]{24}\/(?:[A-Za-z0-9\-_.!~*'()]|%[0-9A-Fa-f]{2})+$/;

/**
 * Whether `url` is an image this shop stored: `/api/media/<24-hex id>/<name>`, relative, as
 * `POST api/media` answers it. Anything else (another host, `javascript:`, a path that climbs out
 * with `..`) is refused, so stored URLs can only ever point at our own media.
 */
export function isMediaUrl(url: unknown): url is string {
  if (typeof url !== 'string' || url.length > MEDIA_URL_MAX_LENGTH || !MEDIA_URL.test(url)) return false;
  const name = url.slice(url.lastIndexOf('/') + 1);
  return name !== '.' && name !== '..';
}
