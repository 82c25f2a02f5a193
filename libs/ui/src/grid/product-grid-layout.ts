// How the catalogue's product grid lays its cards out, for the grid itself (mf-catalog) and for the shell,
// which asks for the first row's pictures before the grid's code has arrived (they must name the very same
// variants, or the grid would fetch its pictures a second time). No imports: the shell's entry bundles it.

/** How many cards the widest grid shows in its first row (4 columns: docs/product/screens.md, "Home"). */
export const PRODUCT_GRID_FIRST_ROW = 4;

/**
 * From which viewport width each card of the first row is in the first row (mf-catalog's
 * product-grid.module.css: 1 column, then 2 from 576px, 3 from 768px, 4 from 992px). A phone's first row
 * is the first card alone: the others are below the fold there.
 */
export const PRODUCT_GRID_FIRST_ROW_MEDIA = [
  undefined,
  '(min-width: 576px)',
  '(min-width: 768px)',
  '(min-width: 992px)',
] as const;

/**
 * How wide a card's picture is drawn, per breakpoint of mf-catalog's product-grid.module.css: the shell's
 * main column (at most 1320px, 1rem padding each side) split into 1–4 columns with 1rem gaps. The
 * browser picks the smallest variant of the `srcset` that covers this at the screen's density.
 */
export const CARD_IMAGE_SIZES = [
  '(min-width: 1320px) 310px',
  '(min-width: 992px) calc((100vw - 80px) / 4)',
  '(min-width: 768px) calc((100vw - 64px) / 3)',
  '(min-width: 576px) calc((100vw - 48px) / 2)',
  'calc(100vw - 32px)',
].join(', ');
