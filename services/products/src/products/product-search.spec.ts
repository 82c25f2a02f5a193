import { mongo } from 'mongoose';
import { describe, expect, it } from 'vitest';
import { planProductFacets, planProductSearch } from './product-search';

describe('planProductSearch', () => {
  it('writes a search text holding a NUL byte as a pattern BSON accepts, which still matches it', () => {
    const { filter } = planProductSearch({ query: 'a\0b' });
    const pattern = Object.values((filter['$or'] as Record<string, RegExp>[])[0]!)[0]!;
    expect(pattern.test('xa\0by')).toBe(true);
    expect(() => mongo.BSON.serialize(filter)).not.toThrow();
  });

  it('without criteria matches every live product, newest first, unpaged', () => {
    expect(planProductSearch({})).toEqual({ filter: { deletedAt: null }, sort: { createdAt: -1, _id: -1 } });
  });

  it('searches the text case-insensitively in name, brand, category and description', () => {
    const { filter } = planProductSearch({ query: '  glock ' });
    const or = filter['$or'] as Record<string, RegExp>[];
    expect(or.map((clause) => Object.keys(clause)[0])).toEqual(['name', 'brand', 'category', 'description']);
    for (const clause of or) {
      const pattern = Object.values(clause)[0]!;
      expect(pattern.flags).toBe('i');
      expect(pattern.source).toBe('glock');
    }
  });

  it('treats a pattern as text', () => {
    const { filter } = planProductSearch({ query: '.*' });
    const pattern = (filter['$or'] as Record<string, RegExp>[])[0]!['name']!;
    expect(pattern.test('Glock 19')).toBe(false);
    expect(pattern.test('a .* b')).toBe(true);
  });

  it('filters by category, brand and price range', () => {
    expect(
      planProductSearch({ category: 'Optics', brand: 'Vortex', minPrice: 10, maxPrice: 99.5 }).filter,
    ).toEqual({
      deletedAt: null,
      category: 'Optics',
      brand: 'Vortex',
      price: { $gte: 10, $lte: 99.5 },
    });
    expect(planProductSearch({ maxPrice: 0 }).filter['price']).toEqual({ $lte: 0 });
  });

  it('sorts with the id as tie-breaker', () => {
    expect(planProductSearch({ sort: 'price-asc' }).sort).toEqual({ price: 1, _id: 1 });
    expect(planProductSearch({ sort: 'price-desc' }).sort).toEqual({ price: -1, _id: -1 });
    expect(planProductSearch({ sort: 'rating' }).sort).toEqual({ rating: -1, numReviews: -1, _id: -1 });
    expect(planProductSearch({ sort: 'name' }).sort).toEqual({ name: 1, _id: 1 });
  });

  it('pages only when asked, 50 to a page by default', () => {
    expect(planProductSearch({ page: 3 }).page).toEqual({ skip: 100, limit: 50 });
    expect(planProductSearch({ pageSize: 5 }).page).toEqual({ skip: 0, limit: 5 });
    expect(planProductSearch({ page: 2, pageSize: 5 }).page).toEqual({ skip: 5, limit: 5 });
  });
});

describe('planProductFacets', () => {
  it('counts each facet with every criterion but its own', () => {
    const plan = planProductFacets({ category: 'Optics', brand: 'Vortex', minPrice: 10 });
    expect(plan.category).toEqual({ deletedAt: null, brand: 'Vortex', price: { $gte: 10 } });
    expect(plan.brand).toEqual({ deletedAt: null, category: 'Optics', price: { $gte: 10 } });
  });

  it('keeps the text search in both facets', () => {
    const plan = planProductFacets({ query: 'glock' });
    expect(plan.category['$or']).toHaveLength(4);
    expect(plan.brand['$or']).toHaveLength(4);
  });
});
