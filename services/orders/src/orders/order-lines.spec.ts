import { describe, expect, it } from 'vitest';
import { OrderLinesError, mergeOrderLines } from './order-lines';

const a = '65a1f0c2e4b0a1b2c3d4e5f6';
const b = '65a1f0c2e4b0a1b2c3d4e5f7';

describe('mergeOrderLines', () => {
  it('adds up lines for the same product and keeps the order of first appearance', () => {
    expect(
      mergeOrderLines([
        { _id: b, quantity: 1 },
        { _id: a, quantity: 2 },
        { _id: b, quantity: 3 },
      ]),
    ).toEqual([
      { productId: b, quantity: 4 },
      { productId: a, quantity: 2 },
    ]);
  });

  it('treats ids that differ only in letter case as the same product', () => {
    expect(
      mergeOrderLines([
        { _id: a.toUpperCase(), quantity: 1 },
        { _id: a, quantity: 1 },
      ]),
    ).toEqual([{ productId: a, quantity: 2 }]);
  });

  it('refuses an empty order', () => {
    expect(() => mergeOrderLines([])).toThrow(OrderLinesError);
  });

  it('refuses more than 1000 units of one product once lines are merged', () => {
    expect(mergeOrderLines([{ _id: a, quantity: 1000 }])).toHaveLength(1);
    expect(() =>
      mergeOrderLines([
        { _id: a, quantity: 600 },
        { _id: a, quantity: 401 },
      ]),
    ).toThrow('At most 1000 units of one product per order');
  });

  it('refuses more than 50 different products', () => {
    const lines = Array.from({ length: 51 }, (_, i) => ({
      _id: i.toString(16).padStart(24, '0'),
      quantity: 1,
    }));
    expect(() => mergeOrderLines(lines)).toThrow('at most 50 different products');
    expect(mergeOrderLines(lines.slice(0, 50))).toHaveLength(50);
  });
});
