import { mediaSrcSet } from '@shop/contracts';
import {
  CARD_IMAGE_SIZES,
  PRODUCT_GRID_FIRST_ROW,
  PRODUCT_GRID_FIRST_ROW_MEDIA,
} from '@shop/ui/product-grid-layout';
import { describe, expect, it } from 'vitest';
import { firstRowImageHints } from './grid-image-preload';

const mediaUrl = (n: number) => `/api/media/${String(n).padStart(24, '0')}/picture-${n}.png`;

describe('first row image hints', () => {
  it('asks for the first row’s pictures with the grid’s own srcset and sizes, at high priority', () => {
    const products = Array.from({ length: PRODUCT_GRID_FIRST_ROW + 2 }, (_, i) => ({
      image: [mediaUrl(i + 1)],
    }));
    const hints = firstRowImageHints(products);
    expect(hints).toHaveLength(PRODUCT_GRID_FIRST_ROW);
    expect(hints[0]).toEqual({
      as: 'image',
      href: mediaUrl(1),
      imagesrcset: mediaSrcSet(mediaUrl(1)),
      imagesizes: CARD_IMAGE_SIZES,
      fetchpriority: 'high',
    });
  });

  it('holds each card’s hint only at the widths where the card is in the first row', () => {
    const products = Array.from({ length: PRODUCT_GRID_FIRST_ROW }, (_, i) => ({ image: [mediaUrl(i + 1)] }));
    const media = firstRowImageHints(products).map((hint) => hint['media']);
    expect(media).toEqual([undefined, ...PRODUCT_GRID_FIRST_ROW_MEDIA.slice(1)]);
    expect(media.slice(1)).toEqual(['(min-width: 576px)', '(min-width: 768px)', '(min-width: 992px)']);
  });

  it('keeps a picture from elsewhere as its plain src and skips cards without one', () => {
    expect(
      firstRowImageHints([
        { image: ['https://elsewhere.example/a.png'] },
        { image: [] },
        null,
        { name: 'x' },
      ]),
    ).toEqual([{ as: 'image', href: 'https://elsewhere.example/a.png', fetchpriority: 'high' }]);
  });

  it('hints nothing when the answer is not a list', () => {
    expect(firstRowImageHints(undefined)).toEqual([]);
    expect(firstRowImageHints({ message: 'down' })).toEqual([]);
  });
});
