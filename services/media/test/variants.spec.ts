import { createHash } from 'node:crypto';
import { MEDIA_VARIANT_WIDTHS } from '@shop/contracts';
import { PNG } from 'pngjs';
import sharp from 'sharp';
import { mongo } from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodedPicture, pngWithDamagedPixels, truncated } from './support/damaged-images';
import { jpegImage } from './support/image-fixtures';
import { type MediaHarness, startMedia, upload } from './support/media.harness';

// What Chromium sends for an <img>, and what a client that cannot show WebP might send.
const BROWSER_ACCEPT = 'image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8';
const NO_WEBP_ACCEPT = 'image/png,image/jpeg,image/*;q=0.8';

let media: MediaHarness;

beforeAll(async () => {
  media = await startMedia();
});

afterAll(async () => {
  await media?.close();
});

/** A 640×480 PNG with detail in it (a gradient and stripes), like a product photo of the demo. */
function photo(width = 640, height = 480): Buffer {
  const png = new PNG({ width, height });
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      const stripe = Math.floor(x / 16) % 2 === 0 ? 40 : 0;
      png.data.set([(x * 255) / width, (y * 255) / height, 120 + stripe, 255], i);
    }
  }
  return PNG.sync.write(png);
}

/** An animated GIF of two 400×200 frames, made with the same library the service uses. */
async function animatedGif(): Promise<Buffer> {
  const frame = (background: string) =>
    sharp({ create: { width: 400, height: 200, channels: 4, background } })
      .png()
      .toBuffer();
  return sharp([await frame('#c00'), await frame('#00c')], { join: { animated: true } })
    .gif()
    .toBuffer();
}

async function stored(bytes: Uint8Array, filename = 'photo.png'): Promise<string> {
  const answer = await upload(media, bytes, { token: await media.tokens.sign(), filename });
  expect(answer.status).toBe(201);
  return answer.body.url!;
}

async function get(path: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${media.url}${path}`, { headers });
  return { response, bytes: Buffer.from(await response.arrayBuffer()) };
}

const idOf = (url: string) => url.split('/')[3]!;
const variantsOf = (url: string) =>
  media.db
    .collection('images.files')
    .find({ 'metadata.variantOf': idOf(url) })
    .toArray();

describe('resized variants of an image', () => {
  it('answers ?w=320 as a WebP 320 pixels wide to a browser, cached for good and varying by Accept', async () => {
    const original = photo();
    const url = await stored(original, 'Glock 19.png');

    const { response, bytes } = await get(`${url}?w=320`, { accept: BROWSER_ACCEPT });

    expect(response.status).toBe(200);
    expect(await sharp(bytes).metadata()).toMatchObject({ format: 'webp', width: 320, height: 240 });
    expect(bytes.length).toBeLessThan(original.length);
    expect({
      type: response.headers.get('content-type'),
      length: response.headers.get('content-length'),
      cache: response.headers.get('cache-control'),
      varyByAccept: response.headers.get('vary')?.split(/,\s*/).includes('Accept'),
      etag: response.headers.get('etag'),
      nosniff: response.headers.get('x-content-type-options'),
      disposition: response.headers.get('content-disposition'),
    }).toEqual({
      type: 'image/webp',
      length: String(bytes.length),
      cache: 'public, max-age=31536000, immutable',
      varyByAccept: true,
      etag: `"${createHash('sha256').update(bytes).digest('hex')}"`,
      nosniff: 'nosniff',
      disposition: `inline; filename="${url.split('/').pop()!.replace('.png', '-w320.webp')}"`,
    });
  });

  it('keeps the original type for a client that does not take WebP', async () => {
    const url = await stored(photo());
    for (const accept of [NO_WEBP_ACCEPT, 'image/webp;q=0, image/*', '']) {
      const { response, bytes } = await get(`${url}?w=480`, accept ? { accept } : {});
      expect(response.headers.get('content-type'), accept).toBe('image/png');
      expect(await sharp(bytes).metadata(), accept).toMatchObject({ format: 'png', width: 480, height: 360 });
    }
    const jpeg = await stored(jpegImage(640, 320), 'wide.jpg');
    const { response, bytes } = await get(`${jpeg}?w=320`, { accept: NO_WEBP_ACCEPT });
    expect(response.headers.get('content-type')).toBe('image/jpeg');
    expect(await sharp(bytes).metadata()).toMatchObject({ format: 'jpeg', width: 320, height: 160 });
  });

  it('makes each variant once, stores it beside the original, and any replica serves that copy after', async () => {
    const url = await stored(photo());

    // Five shoppers at once, then one more: still a single stored WebP at 640.
    const first = await Promise.all(
      Array.from({ length: 5 }, () => get(`${url}?w=640`, { accept: BROWSER_ACCEPT })),
    );
    const later = await get(`${url}?w=640`, { accept: BROWSER_ACCEPT });
    for (const answer of [...first, later]) expect(answer.bytes.equals(later.bytes)).toBe(true);

    const variants = await variantsOf(url);
    expect(variants).toHaveLength(1);
    expect(variants[0]!.metadata).toMatchObject({
      contentType: 'image/webp',
      width: 640,
      height: 480,
      variantOf: idOf(url),
      variantWidth: 640,
      sha256: createHash('sha256').update(later.bytes).digest('hex'),
    });

    // The copy made is kept in memory: the stored metadata is not even read again.
    await media.db
      .collection('images.files')
      .updateOne({ _id: variants[0]!._id }, { $set: { 'metadata.sha256': 'marked-in-the-store' } });
    const again = await get(`${url}?w=640`, { accept: BROWSER_ACCEPT });
    expect(again.response.headers.get('etag')).toBe(later.response.headers.get('etag'));

    // Another replica on the same database serves the stored copy (the mark shows) without making one.
    const replica = await startMedia({ MONGO_URL: media.mongoUrl });
    try {
      const fromStore = await fetch(`${replica.url}${url}?w=640`, { headers: { accept: BROWSER_ACCEPT } });
      expect(fromStore.headers.get('etag')).toBe('"marked-in-the-store"');
      expect(Buffer.from(await fromStore.arrayBuffer()).equals(later.bytes)).toBe(true);
    } finally {
      await replica.close();
    }
    expect(await variantsOf(url)).toHaveLength(1);

    // Another type is another variant.
    await get(`${url}?w=640`, { accept: NO_WEBP_ACCEPT });
    expect((await variantsOf(url)).map((file) => file['metadata'].contentType).sort()).toEqual([
      'image/png',
      'image/webp',
    ]);
  });

  it("never enlarges: every width from the picture's own up answers one variant at its own size", async () => {
    const url = await stored(photo());
    const answers = [];
    for (const width of MEDIA_VARIANT_WIDTHS.filter((w) => w >= 640)) {
      answers.push(await get(`${url}?w=${width}`, { accept: BROWSER_ACCEPT }));
    }
    for (const { bytes } of answers) {
      expect(await sharp(bytes).metadata()).toMatchObject({ format: 'webp', width: 640, height: 480 });
      expect(bytes.equals(answers[0]!.bytes)).toBe(true);
    }
    expect(await variantsOf(url)).toHaveLength(1);
  });

  it('keeps every frame of an animated GIF, as GIF or as WebP', async () => {
    const url = await stored(await animatedGif(), 'spinning.gif');
    for (const [accept, format] of [
      [NO_WEBP_ACCEPT, 'gif'],
      [BROWSER_ACCEPT, 'webp'],
    ] as const) {
      const { bytes } = await get(`${url}?w=320`, { accept });
      expect(await sharp(bytes, { animated: true }).metadata(), format).toMatchObject({
        format,
        width: 320,
        pageHeight: 160,
        pages: 2,
      });
    }
  });

  it("answers 304 to the variant's own ETag", async () => {
    const url = await stored(photo());
    const { response } = await get(`${url}?w=320`, { accept: BROWSER_ACCEPT });
    const etag = response.headers.get('etag')!;
    const cached = await get(`${url}?w=320`, { accept: BROWSER_ACCEPT, 'if-none-match': etag });
    expect(cached.response.status).toBe(304);
    expect(cached.bytes.length).toBe(0);
    const original = await get(url, { 'if-none-match': etag });
    expect(original.response.status).toBe(200);
  });

  it('refuses a width outside the offered set with 400 and a message, before anything is made', async () => {
    const url = await stored(photo());
    for (const query of ['w=321', 'w=0', 'w=abc', 'w=', 'w=320&w=480', 'w=3e2', 'w=-320', 'w=99999999999']) {
      const { response, bytes } = await get(`${url}?${query}`, { accept: BROWSER_ACCEPT });
      expect(response.status, query).toBe(400);
      expect(JSON.parse(bytes.toString()), query).toMatchObject({
        message: 'Width (w) must be one of 320, 480, 640, 960, 1280',
      });
    }
    expect(await variantsOf(url)).toHaveLength(0);
  });

  it('answers 404 for a variant of an image that does not exist, and 400 for a malformed id', async () => {
    const missing = await get('/api/media/65a1f0c2e4b0a1b2c3d4e5f6/nothing.png?w=320');
    expect(missing.response.status).toBe(404);
    expect(JSON.parse(missing.bytes.toString())).toMatchObject({ message: 'Image not found' });
    const malformed = await get('/api/media/not-an-id/nothing.png?w=320');
    expect(malformed.response.status).toBe(400);
  });
});

describe('a stored original that cannot be resized (stored before uploads were decoded in full)', () => {
  const files = () => media.db.collection('images.files');

  /** Stores the bytes as an older release did, judged by their header only; answers their URL. */
  async function storedUnchecked(bytes: Buffer, contentType: string, extension: string): Promise<string> {
    const id = new mongo.ObjectId();
    const filename = `1767225600000-damaged.${extension}`;
    const bucket = new mongo.GridFSBucket(media.db.db!, { bucketName: 'images' });
    const metadata = {
      contentType,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      width: 160,
      height: 120,
      owner: media.tokens.newUserId(),
      originalName: `damaged.${extension}`,
    };
    await new Promise<void>((resolve, reject) => {
      const stream = bucket.openUploadStreamWithId(id, filename, { metadata });
      stream.once('finish', () => resolve());
      stream.once('error', reject);
      stream.end(bytes);
    });
    return `/api/media/${id.toHexString()}/${filename}`;
  }

  const undecodableMark = async (url: string) =>
    (await files().findOne({ _id: new mongo.ObjectId(idOf(url)) }))?.['metadata']?.undecodable as
      { reason: string; at: Date } | undefined;

  it.each([
    ['PNG with damaged pixel data', 'png', 'image/png', 'png', pngWithDamagedPixels],
    ['truncated PNG', 'png', 'image/png', 'png', truncated],
    ['truncated JPEG', 'jpeg', 'image/jpeg', 'jpg', truncated],
    ['truncated WebP', 'webp', 'image/webp', 'webp', truncated],
    ['truncated GIF', 'gif', 'image/gif', 'gif', truncated],
  ] as const)(
    'serves a %s as it is for a resized copy (200, never a 5xx) and records why on the original',
    async (_case, format, contentType, extension, damage) => {
      const damaged = damage(await encodedPicture(format));
      const url = await storedUnchecked(damaged, contentType, extension);

      const { response, bytes } = await get(`${url}?w=320`, { accept: BROWSER_ACCEPT });

      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe(contentType);
      expect(bytes.equals(damaged)).toBe(true);
      expect(await undecodableMark(url)).toMatchObject({ reason: expect.any(String), at: expect.any(Date) });
      expect(await variantsOf(url)).toHaveLength(0);
    },
  );

  it('does not try again: other widths, other types and other replicas serve the original at once', async () => {
    const damaged = pngWithDamagedPixels(await encodedPicture('png'));
    const url = await storedUnchecked(damaged, 'image/png', 'png');
    expect((await get(`${url}?w=320`, { accept: BROWSER_ACCEPT })).response.status).toBe(200);
    const mark = await undecodableMark(url);
    expect(mark?.reason).toMatch(/png/i);

    const replica = await startMedia({ MONGO_URL: media.mongoUrl });
    try {
      for (const [base, width, accept] of [
        [media.url, 480, NO_WEBP_ACCEPT],
        [replica.url, 320, BROWSER_ACCEPT],
        [replica.url, 1280, NO_WEBP_ACCEPT],
      ] as const) {
        const response = await fetch(`${base}${url}?w=${width}`, { headers: { accept } });
        expect(response.status).toBe(200);
        expect(Buffer.from(await response.arrayBuffer()).equals(damaged)).toBe(true);
      }
    } finally {
      await replica.close();
    }
    // A new attempt would have failed again and written a new mark.
    expect(await undecodableMark(url)).toEqual(mark);
    expect(await variantsOf(url)).toHaveLength(0);
  });
});
