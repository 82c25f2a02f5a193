import { crc32 } from 'node:zlib';
import sharp from 'sharp';

export type EncodedFormat = 'png' | 'jpeg' | 'webp' | 'gif';

/**
 * Noise of a fixed seed, as raw RGB: the same bytes on every run (libvips' own noise is seeded at
 * random, and a damaged GIF of some noises still decoded: a test that passed or failed by chance).
 */
function seededNoise(width: number, height: number, seed = 0x5eed): Buffer {
  const pixels = Buffer.alloc(width * height * 3);
  let state = seed >>> 0;
  for (let i = 0; i < pixels.length; i += 1) {
    // xorshift32
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    pixels[i] = state & 0xff;
  }
  return pixels;
}

/**
 * A real picture with detail in it (noise, so no encoder can shrink it to nothing), encoded by libvips
 * as `format`: the kind of file a phone or an editor writes. The same picture on every run.
 */
export async function encodedPicture(format: EncodedFormat, width = 160, height = 120): Promise<Buffer> {
  const picture = sharp(seededNoise(width, height), { raw: { width, height, channels: 3 } });
  switch (format) {
    case 'png':
      return picture.png().toBuffer();
    case 'jpeg':
      return picture.jpeg({ quality: 90 }).toBuffer();
    case 'webp':
      return picture.webp({ lossless: true }).toBuffer();
    case 'gif':
      return picture.gif().toBuffer();
  }
}

/** The first `fraction` of a file, as an interrupted copy or download leaves it: the header is intact. */
export const truncated = (bytes: Buffer, fraction = 0.6): Buffer =>
  Buffer.from(bytes.subarray(0, Math.floor(bytes.length * fraction)));

/** The file with `count` bytes from its middle on flipped, as a bad sector or a flaky link leaves it. */
export function flippedMiddle(bytes: Buffer, count = 64): Buffer {
  const damaged = Buffer.from(bytes);
  const start = Math.floor(damaged.length / 2);
  for (let i = start; i < start + count; i += 1) damaged[i]! ^= 0x5a;
  return damaged;
}

/**
 * A PNG whose pixel data (its first IDAT chunk) is damaged while every chunk's checksum is correct:
 * the header and the chunk structure are sound, so only decoding the pixels shows the damage.
 */
export function pngWithDamagedPixels(png: Buffer): Buffer {
  const damaged = Buffer.from(png);
  let offset = 8;
  while (offset < damaged.length) {
    const length = damaged.readUInt32BE(offset);
    const type = damaged.toString('ascii', offset + 4, offset + 8);
    if (type === 'IDAT') {
      const data = offset + 8;
      // Past the zlib header, into the deflate blocks.
      for (let i = data + 16; i < data + Math.min(length, 80); i += 1) damaged[i]! ^= 0xa5;
      damaged.writeUInt32BE(crc32(damaged.subarray(offset + 4, data + length)), data + length);
      return damaged;
    }
    offset += 12 + length;
  }
  throw new Error('no IDAT chunk in this PNG');
}

/** An animated GIF of `frames` frames of `width` × `height`, each a different colour (none is merged). */
export async function animatedGif(frames: number, width: number, height: number): Promise<Buffer> {
  const frame = (index: number) =>
    sharp({
      create: { width, height, channels: 4, background: { r: (index * 37) % 256, g: 90, b: 160, alpha: 1 } },
    })
      .png()
      .toBuffer();
  const pngs = await Promise.all(Array.from({ length: frames }, (_, index) => frame(index)));
  return sharp(pngs, { join: { animated: true } })
    .gif()
    .toBuffer();
}
