import slugify from 'slugify';

/** What a stored slug looks like: lower-case words of letters and digits joined by single dashes. */
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

const MAX_SLUG_LENGTH = 100;

/**
 * The slug for a product: the admin's own slug or, when it is empty, the name, either way
 * normalised (accents transliterated, everything else dropped). Empty when nothing usable is left.
 */
export function productSlug(requested: string | undefined, name: string): string {
  const source = requested?.trim() ? requested : name;
  return slugify(source, { lower: true, strict: true, trim: true })
    .slice(0, MAX_SLUG_LENGTH)
    .replace(/-+$/, '');
}
