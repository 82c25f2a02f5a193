import { BadRequestException, PayloadTooLargeException, UnsupportedMediaTypeException } from '@nestjs/common';
import { MEDIA_MAX_BYTES, MEDIA_MESSAGES, type MediaContentType } from '@shop/contracts';
import { fileTypeFromBuffer } from 'file-type';
import { imageSize } from 'image-size';
import { DAMAGED_IMAGE_MESSAGE } from './image-decoding';

export type ImageExtension = 'png' | 'jpg' | 'webp' | 'gif';

export interface InspectedImage {
  contentType: MediaContentType;
  extension: ImageExtension;
  width: number;
  height: number;
}

export interface DimensionLimits {
  maxDimension: number;
  maxMegapixels: number;
}

// What the bytes say (file-type) → what we store and serve. An animated PNG is a PNG.
const ACCEPTED: Record<string, { contentType: MediaContentType; extension: ImageExtension }> = {
  'image/png': { contentType: 'image/png', extension: 'png' },
  'image/apng': { contentType: 'image/png', extension: 'png' },
  'image/jpeg': { contentType: 'image/jpeg', extension: 'jpg' },
  'image/webp': { contentType: 'image/webp', extension: 'webp' },
  'image/gif': { contentType: 'image/gif', extension: 'gif' },
};

// image-size's name for each accepted format: both readers must agree on what the file is.
const SIZE_TYPES: Record<ImageExtension, string> = { png: 'png', jpg: 'jpg', webp: 'webp', gif: 'gif' };

/**
 * Judges an image by its bytes alone (never its name or declared type): PNG, JPEG, WebP or GIF,
 * at most 3 MB, with a readable header whose pixel dimensions stay within the limits, so a tiny
 * file cannot make every browser that shows it decode a gigantic picture. Nothing is decoded here:
 * `decodeImage` does that next, once the header has shown the picture is not a decompression bomb.
 */
export async function inspectImage(bytes: Uint8Array, limits: DimensionLimits): Promise<InspectedImage> {
  if (bytes.length === 0) throw new BadRequestException('The file is empty');
  if (bytes.length > MEDIA_MAX_BYTES) throw new PayloadTooLargeException(MEDIA_MESSAGES.tooLarge);
  const sniffed = await fileTypeFromBuffer(bytes);
  const accepted = sniffed ? ACCEPTED[sniffed.mime] : undefined;
  if (!accepted) throw new UnsupportedMediaTypeException(MEDIA_MESSAGES.unsupportedType);
  let size: { width: number; height: number; type?: string };
  try {
    // A copy with a buffer of its own: image-size reads through DataViews that are not bounded by
    // the view it is given, so on a pooled Buffer a truncated header would be read from bytes
    // that belong to something else.
    size = imageSize(new Uint8Array(bytes));
  } catch {
    throw new BadRequestException(DAMAGED_IMAGE_MESSAGE);
  }
  if (size.type !== SIZE_TYPES[accepted.extension] || !(size.width > 0) || !(size.height > 0)) {
    throw new BadRequestException(DAMAGED_IMAGE_MESSAGE);
  }
  const { maxDimension, maxMegapixels } = limits;
  if (
    size.width > maxDimension ||
    size.height > maxDimension ||
    size.width * size.height > maxMegapixels * 1e6
  ) {
    throw new BadRequestException(
      `Image dimensions too large (${size.width}×${size.height}; at most ${maxDimension}×${maxDimension} pixels and ${maxMegapixels} megapixels)`,
    );
  }
  return { ...accepted, width: size.width, height: size.height };
}
