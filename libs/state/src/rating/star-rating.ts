/** How one star of a rating is drawn. */
export type StarFill = 'full' | 'half' | 'empty';

/**
 * One entry per star: star n is full when rating ≥ n, half when rating ≥ n − 0.5, else empty
 * (e.g. 3.5 → full, full, full, half, empty).
 */
export function starFills(rating: number, stars = 5): StarFill[] {
  const value = Number.isFinite(rating) ? rating : 0;
  return Array.from({ length: stars }, (_, index) => {
    const position = index + 1;
    if (value >= position) return 'full';
    if (value >= position - 0.5) return 'half';
    return 'empty';
  });
}
