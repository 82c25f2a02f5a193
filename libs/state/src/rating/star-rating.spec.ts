import { describe, expect, it } from 'vitest';
import { starFills } from './star-rating';

describe('starFills', () => {
  it('draws a half star from .5 upwards', () => {
    expect(starFills(3.5)).toEqual(['full', 'full', 'full', 'half', 'empty']);
    expect(starFills(3.7)).toEqual(['full', 'full', 'full', 'half', 'empty']);
  });

  it('draws no half star below .5', () => {
    expect(starFills(3.4)).toEqual(['full', 'full', 'full', 'empty', 'empty']);
  });

  it('handles the ends of the scale', () => {
    expect(starFills(0)).toEqual(['empty', 'empty', 'empty', 'empty', 'empty']);
    expect(starFills(5)).toEqual(['full', 'full', 'full', 'full', 'full']);
    expect(starFills(0.5)).toEqual(['half', 'empty', 'empty', 'empty', 'empty']);
    expect(starFills(Number.NaN)).toEqual(['empty', 'empty', 'empty', 'empty', 'empty']);
  });
});
