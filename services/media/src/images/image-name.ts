import slugify from 'slugify';
import type { ImageExtension } from './image-inspection';

const MAX_SLUG_LENGTH = 60;

/**
 * The stored name of an upload: `<timestamp>-<slug of the original name>.<true extension>`, so
 * nothing of the client's name can become a path, markup or a misleading extension.
 */
export function storedImageName(originalName: string, extension: ImageExtension, now: number): string {
  const base = originalName.split(/[\\/]/).pop() ?? '';
  const withoutExtension = base.includes('.') ? base.slice(0, base.lastIndexOf('.')) : base;
  const slug =
    slugify(withoutExtension, { lower: true, strict: true, trim: true })
      .slice(0, MAX_SLUG_LENGTH)
      .replace(/-+$/, '') || 'image';
  return `${now}-${slug}.${extension}`;
}
