import { describe, expect, it } from 'vitest';
import { isPhoneNumber } from './phone-number';

describe('isPhoneNumber', () => {
  it('accepts digits with spaces, brackets, dots, dashes and a leading +', () => {
    for (const number of ['+1 (555) 010-9999', '555.010.99', '0044 20 7946 0018', '12345', ' 12345 ']) {
      expect(isPhoneNumber(number), number).toBe(true);
    }
  });

  it('refuses fewer than five digits, letters, a + elsewhere than first, and numbers over 30 characters', () => {
    for (const number of ['', '1234', '(12) 3-4', 'call me', '555-CALL-NOW', '12+345', '1'.repeat(31)]) {
      expect(isPhoneNumber(number), number).toBe(false);
    }
  });
});
