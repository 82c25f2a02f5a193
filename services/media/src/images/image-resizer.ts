import type { MediaContentType } from '@shop/contracts';
import { openImage } from './image-decoding';

export interface ResizedImage {
  bytes: Buffer;
  contentType: MediaContentType;
  width: number;
  height: number;
}

/**
 * Resizes an accepted image (already judged by `inspectImage` and `decodeImage`) to `width` pixels
 * wide, keeping its proportions and never enlarging it, encoded as `contentType`: WebP or the image's
 * own type, both of which keep every frame of an animated GIF or WebP. `maxPixels` bounds what libvips
 * will decode, as the upload limits did. Rejects with libvips' error when the bytes cannot be decoded.
 */
export async function resizeImage(
  bytes: Uint8Array,
  width: number,
  contentType: MediaContentType,
  maxPixels: number,
): Promise<ResizedImage> {
  const pipeline = openImage(bytes, maxPixels)
    // Photos taken sideways are stored as shot with an EXIF orientation; a variant is upright.
    .autoOrient()
    .resize({ width, withoutEnlargement: true });
  switch (contentType) {
    case 'image/webp':
      pipeline.webp({ quality: 80, effort: 4 });
      break;
    case 'image/png':
      pipeline.png({ compressionLevel: 9, adaptiveFiltering: true });
      break;
    case 'image/jpeg':
      pipeline.jpeg({ quality: 80, mozjpeg: true });
      break;
    case 'image/gif':
      pipeline.gif();
      break;
  }
  const { data, info } = await pipeline.toBuffer({ resolveWithObject: true });
  // For an animation `info.height` is that of all frames stacked; `pageHeight` is one frame's.
  return { bytes: data, contentType, width: info.width, height: info.pageHeight ?? info.height };
}
