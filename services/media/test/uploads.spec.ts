import { createHash } from 'node:crypto';
import { MEDIA_MAX_BYTES, isMediaUrl } from '@shop/contracts';
import { Types } from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodedPicture, pngWithDamagedPixels, truncated } from './support/damaged-images';
import { SVG_IMAGE, gifImage, jpegImage, pngBomb, pngImage, webpImage } from './support/image-fixtures';
import { type MediaHarness, startMedia, upload } from './support/media.harness';

const UPLOAD_LIMIT = 5;
let media: MediaHarness;

beforeAll(async () => {
  media = await startMedia({ UPLOADS_PER_WINDOW: String(UPLOAD_LIMIT), UPLOAD_WINDOW_SECONDS: '3600' });
});

afterAll(async () => {
  await media?.close();
});

/** A fresh user per test: the upload throttle counts per user. */
const userToken = () => media.tokens.sign();
const get = (path: string, headers: Record<string, string> = {}) => fetch(`${media.url}${path}`, { headers });

describe('uploading an image', () => {
  it('stores a PNG and serves it back with its true type, nosniff, immutable caching and an ETag', async () => {
    const bytes = pngImage(8, 6);
    const answer = await upload(media, bytes, {
      token: await userToken(),
      filename: 'My Holiday Photo.png',
      type: 'image/png',
    });
    expect(answer.status).toBe(201);
    expect(answer.body.url).toMatch(/^\/api\/media\/[0-9a-f]{24}\/\d{13}-my-holiday-photo\.png$/);
    expect(isMediaUrl(answer.body.url)).toBe(true);

    const response = await get(answer.body.url!);
    expect(response.status).toBe(200);
    expect(Buffer.from(await response.arrayBuffer()).equals(bytes)).toBe(true);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    expect(
      Object.fromEntries(
        [
          'content-type',
          'content-length',
          'x-content-type-options',
          'cache-control',
          'etag',
          'content-disposition',
        ].map((h) => [h, response.headers.get(h)]),
      ),
    ).toEqual({
      'content-type': 'image/png',
      'content-length': String(bytes.length),
      'x-content-type-options': 'nosniff',
      'cache-control': 'public, max-age=31536000, immutable',
      etag: `"${sha256}"`,
      'content-disposition': `inline; filename="${answer.body.url!.split('/').pop()}"`,
    });
    expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
  });

  it('answers 304 to a matching If-None-Match, and the bytes to a stale one', async () => {
    const { body } = await upload(media, pngImage(), { token: await userToken() });
    const etag = (await get(body.url!)).headers.get('etag')!;
    for (const header of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const cached = await get(body.url!, { 'if-none-match': header });
      expect(cached.status, header).toBe(304);
      expect(await cached.text()).toBe('');
      expect(cached.headers.get('etag')).toBe(etag);
    }
    expect((await get(body.url!, { 'if-none-match': '"stale"' })).status).toBe(200);
  });

  it.each([
    ['JPEG', jpegImage(16, 8), 'image/jpeg', 'jpg'],
    ['WebP', webpImage(2, 2), 'image/webp', 'webp'],
    ['GIF', gifImage(), 'image/gif', 'gif'],
  ])('stores a %s and serves it as %s', async (_kind, bytes, contentType, extension) => {
    const answer = await upload(media, bytes, { token: await userToken(), filename: 'picture.bin' });
    expect(answer.status).toBe(201);
    expect(answer.body.url).toMatch(new RegExp(`-picture\\.${extension}$`));
    const response = await get(answer.body.url!);
    expect(response.headers.get('content-type')).toBe(contentType);
    expect(Buffer.from(await response.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('judges by the bytes: a PNG named .jpg and declared image/jpeg is stored and served as PNG', async () => {
    const answer = await upload(media, pngImage(), {
      token: await userToken(),
      filename: 'photo.jpg',
      type: 'image/jpeg',
    });
    expect(answer.status).toBe(201);
    expect(answer.body.url).toMatch(/-photo\.png$/);
    expect((await get(answer.body.url!)).headers.get('content-type')).toBe('image/png');
  });

  it.each([
    ['an SVG, whatever it is called', SVG_IMAGE, 'logo.png', 'image/png'],
    ['an SVG declared as SVG', SVG_IMAGE, 'logo.svg', 'image/svg+xml'],
    ['an HTML page', Buffer.from('<!doctype html><script>alert(1)</script>'), 'page.gif', 'image/gif'],
    ['a text file', Buffer.from('just some text'), 'notes.png', 'image/png'],
  ])('refuses %s with 415', async (_case, bytes, filename, type) => {
    expect(await upload(media, bytes, { token: await userToken(), filename, type })).toMatchObject({
      status: 415,
      body: { message: 'Only PNG, JPEG, WebP and GIF images are accepted' },
    });
  });

  it('refuses a tiny PNG whose header claims a gigantic picture (400)', async () => {
    const answer = await upload(media, pngBomb(60_000, 60_000), { token: await userToken() });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toMatch(/^Image dimensions too large/);
  });

  it.each([
    ['a PNG whose pixel data is damaged (sound header and checksums)', 'png', pngWithDamagedPixels],
    ['a truncated PNG', 'png', truncated],
    ['a truncated JPEG', 'jpeg', truncated],
    ['a truncated WebP', 'webp', truncated],
    ['a truncated GIF', 'gif', truncated],
  ] as const)('refuses %s with 400 and stores nothing', async (_case, format, damage) => {
    const files = media.db.collection('images.files');
    const storedBefore = await files.countDocuments();
    const answer = await upload(media, damage(await encodedPicture(format)), {
      token: await userToken(),
      filename: `damaged.${format}`,
    });
    expect(answer).toMatchObject({ status: 400, body: { message: 'The image is damaged or incomplete' } });
    expect(await files.countDocuments()).toBe(storedBefore);
  });

  it('accepts exactly 3 MB and refuses one byte more with 413', async () => {
    const exactly = Buffer.concat([pngImage(), Buffer.alloc(MEDIA_MAX_BYTES - pngImage().length)]);
    expect(exactly.length).toBe(MEDIA_MAX_BYTES);
    expect((await upload(media, exactly, { token: await userToken() })).status).toBe(201);
    const over = Buffer.concat([exactly, Buffer.alloc(1)]);
    expect(await upload(media, over, { token: await userToken() })).toMatchObject({
      status: 413,
      body: { message: 'Image too large (3 MB max)' },
    });
    // Past the gateway's own 4 MB limit the edge refuses before the service sees anything.
    const huge = await upload(media, Buffer.alloc(5 * 1024 * 1024), { token: await userToken() });
    expect(huge.status).toBe(413);
  });

  it('answers 401 to an anonymous or forged upload', async () => {
    expect(await upload(media, pngImage())).toMatchObject({
      status: 401,
      body: { message: 'Not signed in' },
    });
    expect((await upload(media, pngImage(), { token: 'forged.token.value' })).status).toBe(401);
  });

  it('wants one file in the field named file (400)', async () => {
    const token = await userToken();
    expect(await upload(media, pngImage(), { token, field: 'image' })).toMatchObject({
      status: 400,
      body: { message: 'Send one image, as multipart/form-data in a field named file' },
    });
    const twoFiles = new FormData();
    twoFiles.append('file', new Blob([new Uint8Array(pngImage())]), 'a.png');
    twoFiles.append('file', new Blob([new Uint8Array(pngImage())]), 'b.png');
    const two = await fetch(`${media.url}/api/media`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: twoFiles,
    });
    expect(two.status).toBe(400);
    const json = await fetch(`${media.url}/api/media`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ file: 'iVBORw0KGgo=' }),
    });
    expect(json.status).toBe(400);
  });

  it('keeps the owner, type, digest, dimensions and original name with the bytes', async () => {
    const owner = media.tokens.newUserId();
    const bytes = jpegImage(40, 24);
    const { body } = await upload(media, bytes, {
      token: await media.tokens.sign({ sub: owner }),
      filename: 'Receipt #1.jpeg',
    });
    const [, , , id] = body.url!.split('/');
    const file = await media.db.collection('images.files').findOne({ _id: new Types.ObjectId(id) });
    expect(file?.['metadata']).toEqual({
      contentType: 'image/jpeg',
      sha256: createHash('sha256').update(bytes).digest('hex'),
      width: 40,
      height: 24,
      owner,
      originalName: 'Receipt #1.jpeg',
    });
  });
});

describe('reading an image', () => {
  it('answers 404 for an unknown id or a name that is not the stored one, 400 for a malformed id', async () => {
    const { body } = await upload(media, pngImage(), { token: await userToken() });
    const [, , , id, name] = body.url!.split('/');
    expect((await get(`/api/media/${new Types.ObjectId().toHexString()}/${name}`)).status).toBe(404);
    const wrongName = await get(`/api/media/${id}/other.png`);
    expect(wrongName.status).toBe(404);
    expect(await wrongName.json()).toEqual({ message: 'Image not found' });
    expect((await get(`/api/media/not-an-id/${name}`)).status).toBe(400);
    expect((await get(`/api/media/${id!.toUpperCase()}/${name}`)).status).toBe(400);
  });
});

describe('upload throttle', () => {
  it(`allows ${UPLOAD_LIMIT} uploads per user and window, then 429 with Retry-After, per user`, async () => {
    const token = await userToken();
    for (let i = 0; i < UPLOAD_LIMIT; i += 1)
      expect((await upload(media, gifImage(), { token })).status).toBe(201);
    const refused = await upload(media, gifImage(), { token });
    expect(refused).toMatchObject({
      status: 429,
      body: { message: 'Too many uploads, please try again later' },
    });
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect((await upload(media, gifImage(), { token: await userToken() })).status).toBe(201);
  });

  it('counts parallel uploads atomically: exactly the limit gets through', async () => {
    const token = await userToken();
    const answers = await Promise.all(Array.from({ length: 9 }, () => upload(media, gifImage(), { token })));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(UPLOAD_LIMIT);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(9 - UPLOAD_LIMIT);
  });
});
