import sharp from 'sharp';

/** The formats the media service accepts. */
export type PictureFormat = 'png' | 'jpeg' | 'webp' | 'gif';

/** A real 160×120 picture of noise (nothing compresses it away) in `format`, as libvips writes it. */
export function noisyPicture(format: PictureFormat): Promise<Buffer> {
  const picture = sharp({
    create: {
      width: 160,
      height: 120,
      channels: 3,
      background: '#000',
      noise: { type: 'gaussian', mean: 128, sigma: 50 },
    },
  });
  if (format === 'webp') return picture.webp({ lossless: true }).toBuffer();
  return picture.toFormat(format).toBuffer();
}

/** The first part of a file, as an interrupted copy leaves it: the header is intact, the pixels stop part-way. */
export const truncated = (bytes: Buffer): Buffer => bytes.subarray(0, Math.floor(bytes.length * 0.6));
