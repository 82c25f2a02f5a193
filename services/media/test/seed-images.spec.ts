import { RpcException } from '@nestjs/microservices';
import { MEDIA_STORE_SEED_IMAGE, type StoreSeedImageReply, isMediaUrl } from '@shop/contracts';
import type { ServiceContext } from '@shop/service-kit';
import { refusalOf } from '@shop/service-kit/testing';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MediaConfig } from '../src/config/media.config';
import type { ImagesService } from '../src/images/images.service';
import { SeedImagesController } from '../src/seed/seed-images.controller';
import { SVG_IMAGE, pngImage } from './support/image-fixtures';
import { type MediaHarness, startMedia } from './support/media.harness';

let media: MediaHarness;

beforeAll(async () => {
  media = await startMedia();
});

afterAll(async () => {
  await media?.close();
});

const store = (seedKey: string, bytes: Buffer, fileName = `${seedKey}.png`) =>
  media.command<StoreSeedImageReply>(MEDIA_STORE_SEED_IMAGE, {
    seedKey,
    fileName,
    contentBase64: bytes.toString('base64'),
  });

/** A picture the size of the products seed's (640 × 480, drawn with pngjs). */
function demoPicture(): Buffer {
  const png = new PNG({ width: 640, height: 480 });
  for (let i = 0; i < png.data.length; i += 4) png.data.set([(i >> 10) & 0xff, 90, 60, 255], i);
  return PNG.sync.write(png);
}

const seedFiles = (seedKey: string) =>
  media.db.collection('images.files').countDocuments({ 'metadata.seedKey': seedKey });

describe('media.store-seed-image', () => {
  it('stores a demo picture and answers a URL that serves it as image/png through the gateway', async () => {
    const bytes = demoPicture();
    const { url } = await store('demo-glock-19-gen5-1', bytes, 'glock-19-gen5-1.png');
    expect(isMediaUrl(url)).toBe(true);
    expect(url).toMatch(/-glock-19-gen5-1\.png$/);
    const response = await fetch(`${media.url}${url}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await response.arrayBuffer()).equals(bytes)).toBe(true);
    const file = await media.db
      .collection('images.files')
      .findOne({ 'metadata.seedKey': 'demo-glock-19-gen5-1' });
    expect(file?.['metadata']).toMatchObject({ owner: 'seed', width: 640, height: 480 });
  });

  it('answers the same URL for the same key, storing the picture once, even when asked at once', async () => {
    const first = await store('demo-repeat-1', pngImage());
    expect(await store('demo-repeat-1', pngImage())).toEqual(first);
    expect(await seedFiles('demo-repeat-1')).toBe(1);
    const racing = await Promise.all(Array.from({ length: 5 }, () => store('demo-race-1', pngImage())));
    expect(new Set(racing.map((reply) => reply.url)).size).toBe(1);
    expect(await seedFiles('demo-race-1')).toBe(1);
  });

  it('applies the checks of an upload to the bytes (415 for SVG)', async () => {
    expect(await refusalOf(store('demo-svg', SVG_IMAGE))).toEqual({
      status: 415,
      message: 'Only PNG, JPEG, WebP and GIF images are accepted',
    });
  });

  it.each([
    [
      'a key with a path in it',
      { seedKey: '../x', fileName: 'x.png', contentBase64: pngImage().toString('base64') },
    ],
    [
      'a key that is an operator',
      { seedKey: { $ne: null }, fileName: 'x.png', contentBase64: pngImage().toString('base64') },
    ],
    ['content that is not base64', { seedKey: 'demo-x', fileName: 'x.png', contentBase64: '<svg>' }],
    ['no content', { seedKey: 'demo-x', fileName: 'x.png' }],
  ])('refuses %s (400)', async (_case, request) => {
    expect((await refusalOf(media.command(MEDIA_STORE_SEED_IMAGE, request))).status).toBe(400);
  });

  it('is refused with 403 where seed images are turned off', () => {
    const images = {
      storeSeedImage: () => Promise.reject(new Error('must not be reached')),
    } as unknown as ImagesService;
    const context = { config: { ACCEPT_SEED_IMAGES: false } } as ServiceContext<MediaConfig>;
    const controller = new SeedImagesController(images, context);
    let thrown: unknown;
    try {
      void controller.store({ seedKey: 'demo-x', fileName: 'x.png', contentBase64: '' });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(RpcException);
    expect((thrown as RpcException).getError()).toEqual({
      status: 403,
      message: 'Seed images are not accepted here',
    });
  });
});
