import { mediaSrcSet } from '@shop/contracts';
import { readPrefetchedJson } from '@shop/state/prefetch';
import {
  CARD_IMAGE_SIZES,
  PRODUCT_GRID_FIRST_ROW,
  PRODUCT_GRID_FIRST_ROW_MEDIA,
} from '@shop/ui/product-grid-layout';
import { addPreloadLink } from './preload-link';

/**
 * The preload hints of a grid's first row: the attributes of each card's `<img>` (mf-catalog's ProductCard)
 * as `<link rel="preload" as="image">` asks for them, so the browser picks the same variant the grid will.
 * Each card's hint holds only where that card is in the first row (`media`): on a phone, the pictures
 * below the fold would share the slow link with the code the first screen waits for.
 */
export function firstRowImageHints(products: unknown): Record<string, string>[] {
  if (!Array.isArray(products)) return [];
  const hints: Record<string, string>[] = [];
  (products.slice(0, PRODUCT_GRID_FIRST_ROW) as unknown[]).forEach((product, index) => {
    const images = (product as { image?: unknown } | null)?.image;
    const image: unknown = Array.isArray(images) ? images[0] : undefined;
    if (typeof image !== 'string' || image === '') return;
    const srcSet = mediaSrcSet(image);
    const media = PRODUCT_GRID_FIRST_ROW_MEDIA[index];
    hints.push({
      as: 'image',
      href: image,
      ...(srcSet ? { imagesrcset: srcSet, imagesizes: CARD_IMAGE_SIZES } : {}),
      ...(media ? { media } : {}),
      fetchpriority: 'high',
    });
  });
  return hints;
}

/**
 * Once the catalogue the shell's entry prefetched has arrived (`path`), starts the first row's pictures:
 * they download beside the catalogue remote's code instead of after the grid has rendered. Settles once
 * they are asked for (or the catalogue could not be read).
 */
export async function preloadFirstRowImages(path: string): Promise<void> {
  const products = await readPrefetchedJson(path);
  firstRowImageHints(products).forEach(addPreloadLink);
}
