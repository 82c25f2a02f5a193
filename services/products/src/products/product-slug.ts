import slugify from 'slugify';

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
