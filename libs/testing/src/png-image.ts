import { crc32, deflateSync } from 'node:zlib';

/** One PNG chunk: length, type, data and CRC, for tests that build PNGs by hand. */
export function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * A real PNG of one colour (the media service judges images by their bytes), optionally followed by
 * `padding` bytes that decoders ignore after IEND: a way to make an upload of a chosen size.
 */
export function solidPng(
  options: {
    width?: number;
    height?: number;
    rgba?: [number, number, number, number];
    padding?: number;
  } = {},
): Buffer {
  const { width = 1, height = 1, rgba = [200, 40, 40, 255], padding = 0 } = options;
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 6, 0, 0, 0], 8);
  const row = Buffer.concat([
    Buffer.from([0]),
    Buffer.from(Array.from({ length: width }, () => rgba).flat()),
  ]);
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(Buffer.concat(Array.from({ length: height }, () => row)))),
    pngChunk('IEND', Buffer.alloc(0)),
    Buffer.alloc(padding),
  ]);
}
