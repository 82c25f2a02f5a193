import type { MediaContentType } from '@shop/contracts';
import sharp from 'sharp';

// libvips' operation cache helps a pipeline that reads the same file again; every resize here
// starts from new bytes (and variants are cached by ImageVariants), so it would only hold memory.
sharp.cache(false);

export interface ResizedImage {
  bytes: Buffer;
  contentType: MediaContentType;
  width: number;
  height: number;
}

/**
 * Resizes an accepted image (already judged by `inspectImage`) to `width` pixels wide, keeping its
 * proportions and never enlarging it, encoded as `contentType`: WebP or the image's own type, both
 * of which keep every frame of an animated GIF or WebP. `maxPixels` bounds what libvips will decode,
 * as the upload limits did.
 */
export async function resizeImage(
  bytes: Uint8Array,
  width: number,
  contentType: MediaContentType,
  maxPixels: number,
): Promise<ResizedImage> {
  const pipeline = sharp(bytes, { animated: true, limitInputPixels: Math.ceil(maxPixels) })
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
