import { BadRequestException } from '@nestjs/common';
import sharp, { type Sharp } from 'sharp';

// libvips' operation cache helps a pipeline that reads the same file again; every decode here
// starts from new bytes (and variants are cached by ImageVariantsService), so it would only hold memory.
sharp.cache(false);

export const DAMAGED_IMAGE_MESSAGE = 'The image is damaged or incomplete';

/**
 * Opens image bytes with libvips the one way the service does, for the upload's check and for every
 * resize alike, so an image that passed the check can always be resized: every frame of an
 * animation, refusing damaged or truncated data (`failOn: 'error'`; mere warnings, such as a JPEG's
 * stray bytes before a marker, pass, as they do in browsers), and at most `maxPixels` decoded pixels
 * for all the frames together.
 */
export function openImage(bytes: Uint8Array, maxPixels: number): Sharp {
  return sharp(bytes, { animated: true, failOn: 'error', limitInputPixels: Math.ceil(maxPixels) });
}

/**
 * Decodes every pixel of every frame of an image that `inspectImage` accepted by its header, and
 * refuses (400) one that libvips cannot decode in full, that has no pixels, or whose frames together
 * are more than `maxPixels`: such a file would be stored, and then fail each of its resized copies.
 */
export async function decodeImage(bytes: Uint8Array, maxPixels: number): Promise<void> {
  let frames: number;
  let width: number;
  let frameHeight: number;
  try {
    const header = await openImage(bytes, Number.MAX_SAFE_INTEGER).metadata();
    frames = header.pages ?? 1;
    width = header.width;
    frameHeight = header.pageHeight ?? header.height;
  } catch {
    throw new BadRequestException(DAMAGED_IMAGE_MESSAGE);
  }
  if (!(width > 0) || !(frameHeight > 0) || !(frames > 0))
    throw new BadRequestException(DAMAGED_IMAGE_MESSAGE);
  if (width * frameHeight * frames > maxPixels) {
    throw new BadRequestException(
      `Image too large to decode (${frames} frames of ${width}×${frameHeight}; at most ${Number((maxPixels / 1e6).toPrecision(3))} megapixels for all frames together)`,
    );
  }
  try {
    // Averaging every frame down to one pixel reads every row of every frame: a full decode that keeps
    // no frame in memory. Not `stats()`: with other images decoding at the same time, libvips 8.18's
    // statistics let about one truncated PNG or JPEG in five through without an error.
    await openImage(bytes, maxPixels).resize(1, 1, { fit: 'fill', fastShrinkOnLoad: false }).raw().toBuffer();
  } catch {
    throw new BadRequestException(DAMAGED_IMAGE_MESSAGE);
  }
}
