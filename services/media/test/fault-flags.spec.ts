import { flagSetFile } from '@shop/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jpegImage } from './support/image-fixtures';
import { type MediaHarness, startMedia, upload } from './support/media.harness';

// The pictures' fault flags (docs/observability.md, "Fault flags"), read from a flag set file as
// FLAGS_SOURCE=file://… (the cluster syncs the same set from the data service).

const DELAY_MS = 2_000;
const flagFile = flagSetFile({
  mediaVariantDelay: { off: 0, slow: DELAY_MS },
  mediaVariantFailure: { off: 0, '100%': 1 },
});

let media: MediaHarness;
let picture: string;

beforeAll(async () => {
  media = await startMedia({ FLAGS_SOURCE: flagFile.source });
  const stored = await upload(media, jpegImage(64, 48), {
    token: await media.tokens.sign(),
    filename: 'flag.jpg',
  });
  expect(stored.status).toBe(201);
  picture = stored.body.url!;
});

afterAll(async () => {
  await media?.close();
  flagFile.remove();
});

const fetchPicture = async (query = '') => {
  const started = performance.now();
  const response = await fetch(`${media.url}${picture}${query}`);
  await response.arrayBuffer();
  return { status: response.status, ms: performance.now() - started };
};

describe('the pictures fault flags', () => {
  it('mediaVariantFailure answers resized copies with a 503, the picture itself still served', async () => {
    await flagFile.switchTo(media.flags, { mediaVariantFailure: '100%' });
    const refused = await fetch(`${media.url}${picture}?w=320`);
    expect(refused.status).toBe(503);
    expect(await refused.json()).toEqual({
      message: 'The picture cannot be resized right now, please try again',
    });
    expect((await fetchPicture()).status).toBe(200);

    await flagFile.switchTo(media.flags, {});
    expect((await fetchPicture('?w=320')).status).toBe(200);
  });

  it('mediaVariantDelay answers resized copies that much later, and no longer once off', async () => {
    await flagFile.switchTo(media.flags, { mediaVariantDelay: 'slow' });
    const slow = await fetchPicture('?w=480');
    expect(slow.status).toBe(200);
    expect(slow.ms).toBeGreaterThanOrEqual(DELAY_MS);

    await flagFile.switchTo(media.flags, {});
    const again = await fetchPicture('?w=480');
    expect(again.status).toBe(200);
    // The flag's delay is gone (the copy is made already; the bound is the flag's own value).
    expect(again.ms).toBeLessThan(DELAY_MS);
  });
});
