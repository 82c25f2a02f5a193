import { refusalOf } from '@shop/service-kit/testing';
import { describe, expect, it } from 'vitest';
import {
  type EncodedFormat,
  animatedGif,
  encodedPicture,
  flippedMiddle,
  pngWithDamagedPixels,
  truncated,
} from '../../test/support/damaged-images';
import { gifImage, jpegImage, pngImage, webpImage } from '../../test/support/image-fixtures';
import { decodeImage } from './image-decoding';
import { resizeImage } from './image-resizer';

const MAX_PIXELS = 40e6;

const refusal = (bytes: Uint8Array, maxPixels = MAX_PIXELS) => refusalOf(decodeImage(bytes, maxPixels));

const FORMATS: EncodedFormat[] = ['png', 'jpeg', 'webp', 'gif'];

describe('decodeImage', () => {
  it.each(FORMATS)('accepts a sound %s, and the small hand-written fixtures', async (format) => {
    await expect(decodeImage(await encodedPicture(format), MAX_PIXELS)).resolves.toBeUndefined();
    for (const bytes of [pngImage(), jpegImage(), webpImage(), gifImage()]) {
      await expect(decodeImage(bytes, MAX_PIXELS)).resolves.toBeUndefined();
    }
  });

  it.each(FORMATS)('refuses a truncated %s (400), which the resize would fail on too', async (format) => {
    const damaged = truncated(await encodedPicture(format));
    expect(await refusal(damaged)).toEqual({ status: 400, message: 'The image is damaged or incomplete' });
    await expect(resizeImage(damaged, 64, 'image/webp', MAX_PIXELS)).rejects.toThrow();
  });

  it.each(['png', 'jpeg'] as const)(
    'refuses every truncated %s while other uploads are being decoded at the same time',
    async (format) => {
      const damaged = truncated(await encodedPicture(format));
      const decodes = 100;
      let accepted = 0;
      for (let round = 0; round < decodes / 4; round += 1) {
        const answers = await Promise.allSettled(
          Array.from({ length: 4 }, () => decodeImage(damaged, MAX_PIXELS)),
        );
        accepted += answers.filter((answer) => answer.status === 'fulfilled').length;
      }
      expect(accepted, `${accepted} of ${decodes} truncated copies accepted`).toBe(0);
    },
  );

  it.each([
    [
      'a PNG whose pixel data is damaged under correct checksums',
      async () => pngWithDamagedPixels(await encodedPicture('png')),
    ],
    ['a PNG with flipped bytes', async () => flippedMiddle(await encodedPicture('png'))],
    ['a GIF with flipped bytes', async () => flippedMiddle(await encodedPicture('gif'))],
  ])('refuses %s (400)', async (_case, make) => {
    expect(await refusal(await make())).toEqual({
      status: 400,
      message: 'The image is damaged or incomplete',
    });
  });

  it('refuses an animation whose frames together exceed the pixel limit, each frame being within it', async () => {
    const animation = await animatedGif(4, 600, 600);
    expect(await refusal(animation, 1e6)).toEqual({
      status: 400,
      message:
        'Image too large to decode (4 frames of 600×600; at most 1 megapixels for all frames together)',
    });
    await expect(decodeImage(animation, 2e6)).resolves.toBeUndefined();
  });
});
