import { deflateSync } from 'node:zlib';
import { pngChunk } from '@shop/testing';
import { PNG } from 'pngjs';

// The hand-written JPEG, GIF and WebP below were checked to decode in Chromium (24×16 grey,
// 1×1 black, 3×2 of rgb(17, 34, 51)): they are real images, not just headers.

/** A real PNG drawn with pngjs. */
export function pngImage(width = 4, height = 3): Buffer {
  const png = new PNG({ width, height });
  for (let i = 0; i < png.data.length; i += 4) png.data.set([200, 40, 40, 255], i);
  return PNG.sync.write(png);
}

/**
 * A PNG of a few hundred bytes whose header claims `width` × `height` pixels: the classic
 * decompression bomb (its one IDAT would inflate to width × height × 4 bytes).
 */
export function pngBomb(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 6, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(Buffer.alloc(4096))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

const u16be = (value: number) => [(value >> 8) & 0xff, value & 0xff];
const u16le = (value: number) => [value & 0xff, (value >> 8) & 0xff];
const hex = (text: string) => Buffer.from(text.replace(/\s+/g, ''), 'hex');

/** A JPEG marker segment: `FF <marker>`, a length that counts itself, the body. */
const jpegSegment = (marker: number, body: Uint8Array) =>
  Buffer.concat([Buffer.from([0xff, marker, ...u16be(body.length + 2)]), body]);

/** A Huffman table (`tableClass` 0x00 DC, 0x10 AC) with a single one-bit code for symbol 0. */
const oneSymbolTable = (tableClass: number) =>
  Buffer.concat([Buffer.from([tableClass, 1]), Buffer.alloc(15), Buffer.from([0x00])]);

/**
 * A baseline JPEG of one grey tone, written by hand: 8-bit greyscale, quantisation all 1s, and
 * Huffman tables of one symbol each (DC difference 0, AC end-of-block), so every 8×8 block is the
 * two bits `0 0`.
 */
export function jpegImage(width = 16, height = 16): Buffer {
  const blocks = Math.ceil(width / 8) * Math.ceil(height / 8);
  const scan: number[] = [];
  for (let bits = blocks * 2; bits > 0; bits -= 8) {
    // Zero bits for the blocks, the remainder of the last byte padded with ones.
    scan.push(bits >= 8 ? 0x00 : 0xff >> bits);
  }
  return Buffer.concat([
    hex('ffd8'), // start of image
    jpegSegment(0xe0, Buffer.concat([Buffer.from('JFIF\0', 'ascii'), hex('0101 00 0001 0001 00 00')])),
    jpegSegment(0xdb, Buffer.concat([hex('00'), Buffer.alloc(64, 1)])), // quantisation table 0
    jpegSegment(0xc0, Buffer.from([8, ...u16be(height), ...u16be(width), 1, 1, 0x11, 0])), // one grey component
    jpegSegment(0xc4, oneSymbolTable(0x00)),
    jpegSegment(0xc4, oneSymbolTable(0x10)),
    jpegSegment(0xda, hex('01 01 00 00 3f 00')), // scan of component 1, tables 0/0, coefficients 0-63
    Buffer.from(scan),
    hex('ffd9'), // end of image
  ]);
}

/** A 1×1 GIF89a: two-colour palette, one LZW-coded pixel (clear, 0, end). */
export function gifImage(): Buffer {
  return Buffer.concat([
    Buffer.from('GIF89a', 'ascii'),
    Buffer.from([...u16le(1), ...u16le(1), 0x80, 0x00, 0x00]), // screen 1×1, global palette of 2
    hex('000000 ffffff'),
    Buffer.from([0x2c, ...u16le(0), ...u16le(0), ...u16le(1), ...u16le(1), 0x00]), // image 1×1 at 0,0
    hex('02 02 4401 00'), // LZW minimum code size 2, one 2-byte block, terminator
    hex('3b'),
  ]);
}

class BitWriter {
  private readonly bytes: number[] = [];
  private bit = 0;

  /** Writes `count` bits of `value`, least significant first (VP8L's order). */
  write(value: number, count: number): this {
    for (let i = 0; i < count; i += 1) {
      if (this.bit % 8 === 0) this.bytes.push(0);
      if ((value >>> i) & 1) this.bytes[this.bytes.length - 1]! |= 1 << (this.bit % 8);
      this.bit += 1;
    }
    return this;
  }

  done(): Buffer {
    return Buffer.from(this.bytes);
  }
}

/**
 * A lossless WebP (VP8L) written by hand. Every prefix code is a "simple" code of one symbol, so
 * each pixel costs no bits: the picture is `width` × `height` of one ARGB colour.
 */
export function webpImage(width = 1, height = 1): Buffer {
  const bits = new BitWriter()
    .write(0x2f, 8)
    .write(width - 1, 14)
    .write(height - 1, 14)
    .write(1, 1)
    .write(0, 3)
    // No transform, no colour cache, no meta prefix codes.
    .write(0, 3);
  // Green, red, blue, alpha: simple code, one symbol, 8-bit symbol.
  for (const symbol of [0x22, 0x11, 0x33, 0xff]) bits.write(1, 1).write(0, 1).write(1, 1).write(symbol, 8);
  // Distance: simple code, one 1-bit symbol (unused).
  bits.write(1, 1).write(0, 1).write(0, 1).write(0, 1);
  const data = bits.done();
  const padded = data.length % 2 ? Buffer.concat([data, Buffer.from([0])]) : data;
  const chunkHeader = Buffer.alloc(8);
  chunkHeader.write('VP8L', 0, 'ascii');
  chunkHeader.writeUInt32LE(data.length, 4);
  const riff = Buffer.alloc(12);
  riff.write('RIFF', 0, 'ascii');
  riff.writeUInt32LE(4 + chunkHeader.length + padded.length, 4);
  riff.write('WEBP', 8, 'ascii');
  return Buffer.concat([riff, chunkHeader, padded]);
}

export const SVG_IMAGE = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(document.cookie)</script></svg>',
);
