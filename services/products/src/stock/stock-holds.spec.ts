import { describe, expect, it } from 'vitest';
import { dropHold, giveBackStock, strayHoldAction, takeStock } from './stock-holds';

const line = { productId: '0123456789abcdef01234567', quantity: 3 };
const at = new Date('2026-01-02T03:04:05Z');

describe('takeStock', () => {
  it('takes only from a live product with enough stock that this reservation does not hold yet', () => {
    expect(takeStock('order-1', line, at).filter).toEqual({
      _id: line.productId,
      deletedAt: null,
      countInStock: { $gte: 3 },
      'holds.id': { $ne: 'order-1' },
    });
  });

  it('records the hold in the same update that takes the stock', () => {
    expect(takeStock('order-1', line, at).update).toEqual({
      $inc: { countInStock: -3 },
      $push: { holds: { id: 'order-1', quantity: 3, at } },
    });
  });
});

describe('giveBackStock', () => {
  it('matches only while the hold is there, so the stock comes back once', () => {
    expect(giveBackStock('order-1', line).filter).toEqual({
      _id: line.productId,
      holds: { $elemMatch: { id: 'order-1', quantity: 3 } },
    });
  });

  it('removes the hold in the same update that gives back what it held', () => {
    expect(giveBackStock('order-1', line).update).toEqual({
      $inc: { countInStock: 3 },
      $pull: { holds: { id: 'order-1' } },
    });
  });

  it('still gives back to a deleted product, so its hold can go', () => {
    expect(giveBackStock('order-1', line).filter).not.toHaveProperty('deletedAt');
  });
});

describe('dropHold', () => {
  it('forgets the hold without touching the stock', () => {
    expect(dropHold('order-1', line.productId)).toEqual({
      filter: { _id: line.productId, 'holds.id': 'order-1' },
      update: { $pull: { holds: { id: 'order-1' } } },
    });
  });
});

describe('strayHoldAction', () => {
  it.each([
    ['failed', 'give-back'],
    ['released', 'give-back'],
    ['closed', 'drop'],
    ['sold', 'keep'],
    ['pending', 'keep'],
    ['reserved', 'keep'],
    ['failing', 'keep'],
    ['releasing', 'keep'],
    [undefined, 'keep'],
  ] as const)('a hold of a %s reservation: %s', (state, action) => {
    expect(strayHoldAction(state)).toBe(action);
  });
});
