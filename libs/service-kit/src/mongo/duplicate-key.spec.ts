import { describe, expect, it } from 'vitest';
import { isDuplicateKey } from './duplicate-key';

describe('isDuplicateKey', () => {
  it("knows MongoDB's duplicate-key error and a bulk write's entry of it", () => {
    expect(isDuplicateKey(Object.assign(new Error('E11000 duplicate key'), { code: 11000 }))).toBe(true);
    expect(isDuplicateKey({ index: 3, code: 11000, errmsg: 'E11000' })).toBe(true);
  });

  it('is false for any other failure, and for things that are not errors', () => {
    for (const other of [
      Object.assign(new Error('write conflict'), { code: 112 }),
      { code: '11000' },
      new Error('E11000 in the message only'),
      null,
      undefined,
      11000,
    ]) {
      expect(isDuplicateKey(other), String(other)).toBe(false);
    }
  });
});
