import { MEDIA_MAX_BYTES } from '@shop/contracts';
import { refusalOf } from '@shop/service-kit/testing';
import { describe, expect, it } from 'vitest';
import {
  SVG_IMAGE,
  gifImage,
  jpegImage,
  pngBomb,
  pngImage,
  webpImage,
} from '../../test/support/image-fixtures';
import { inspectImage } from './image-inspection';

const limits = { maxDimension: 6_000, maxMegapixels: 40 };

const refusal = (bytes: Uint8Array) => refusalOf(inspectImage(bytes, limits));

describe('inspectImage', () => {
  it('accepts PNG, JPEG, WebP and GIF by their bytes, with their dimensions', async () => {
    expect(await inspectImage(pngImage(4, 3), limits)).toEqual({
      contentType: 'image/png',
      extension: 'png',
      width: 4,
      height: 3,
    });
    expect(await inspectImage(jpegImage(24, 16), limits)).toEqual({
      contentType: 'image/jpeg',
      extension: 'jpg',
      width: 24,
      height: 16,
    });
    expect(await inspectImage(webpImage(3, 2), limits)).toEqual({
      contentType: 'image/webp',
      extension: 'webp',
      width: 3,
      height: 2,
    });
    expect(await inspectImage(gifImage(), limits)).toEqual({
      contentType: 'image/gif',
      extension: 'gif',
      width: 1,
      height: 1,
    });
  });

  it('refuses SVG, HTML, PDF and unknown bytes with 415', async () => {
    for (const bytes of [
      SVG_IMAGE,
      Buffer.from('<!doctype html><p>hi'),
      Buffer.from('%PDF-1.7\n%âãÏÓ\n1 0 obj'),
      Buffer.from([1, 2, 3, 4]),
    ]) {
      expect(await refusal(bytes)).toEqual({
        status: 415,
        message: 'Only PNG, JPEG, WebP and GIF images are accepted',
      });
    }
  });

  it('refuses dimension bombs, however small the file (400)', async () => {
    const bomb = pngBomb(100_000, 100_000);
    expect(bomb.length).toBeLessThan(1_000);
    const answer = await refusal(bomb);
    expect(answer.status).toBe(400);
    expect(answer.message).toMatch(/^Image dimensions too large \(100000×100000/);
    expect((await refusal(pngBomb(6_001, 10))).status).toBe(400);
    // 40 megapixels: 6000 × 6000 is 36 MP (accepted), 6000 × 7000 would pass no side check either.
    expect((await inspectImage(pngBomb(6_000, 6_000), limits)).width).toBe(6_000);
    expect((await refusal(webpImage(16_000, 16_000))).status).toBe(400);
    expect(
      await inspectImage(pngBomb(20, 20), { maxDimension: 6_000, maxMegapixels: 0.0001 }).catch(
        (e: Error) => e.message,
      ),
    ).toMatch(/megapixels/);
  });

  it('refuses a truncated image and an empty file (400), and more than 3 MB (413)', async () => {
    expect((await refusal(pngImage().subarray(0, 20))).status).toBe(400);
    expect(await refusal(Buffer.alloc(0))).toEqual({ status: 400, message: 'The file is empty' });
    const tooLarge = Buffer.concat([pngImage(), Buffer.alloc(MEDIA_MAX_BYTES)]);
    expect(await refusal(tooLarge)).toEqual({ status: 413, message: 'Image too large (3 MB max)' });
  });
});
