import { describe, expect, it } from 'vitest';
import { PRODUCT_SLUG_PATTERN } from '@shop/contracts';
import { productSlug } from './product-slug';

describe('productSlug', () => {
  it('makes the slug from the name when none is given', () => {
    expect(productSlug(undefined, 'Glock 19 Gen5 9mm')).toBe('glock-19-gen5-9mm');
    expect(productSlug('   ', 'Smith & Wesson M&P9')).toBe('smith-and-wesson-mandp9');
  });

  it("normalises the admin's own slug", () => {
    expect(productSlug('My Special  Offer!', 'ignored')).toBe('my-special-offer');
    expect(productSlug('Crème brûlée', 'x')).toBe('creme-brulee');
  });

  it('never lets path or markup characters through', () => {
    const slug = productSlug('../../etc/passwd <script>', 'x');
    expect(slug).toMatch(PRODUCT_SLUG_PATTERN);
    expect(slug).toBe('etcpasswd-lessscriptgreater');
  });

  it('is empty when nothing usable is left', () => {
    expect(productSlug('', '???')).toBe('');
  });

  it('keeps slugs to 100 characters without a trailing dash', () => {
    const slug = productSlug(`${'a'.repeat(99)} b`, 'x');
    expect(slug.length).toBeLessThanOrEqual(100);
    expect(slug).toMatch(PRODUCT_SLUG_PATTERN);
  });
});
