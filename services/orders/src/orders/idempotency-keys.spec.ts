import { BadRequestException } from '@nestjs/common';
import { describe, expect, it } from 'vitest';
import { parseIdempotencyKey, requestFingerprint } from './idempotency-keys.service';

const address = {
  fullName: 'Ada',
  address: '1 Row',
  city: 'London',
  country: 'UK',
  phoneNumber: '020 7946 0958',
};
const a = '65a1f0c2e4b0a1b2c3d4e5f6';
const b = '65a1f0c2e4b0a1b2c3d4e5f7';

describe('parseIdempotencyKey', () => {
  it('passes an absent header and keys of 1 to 128 visible ASCII characters', () => {
    expect(parseIdempotencyKey(undefined)).toBeUndefined();
    expect(parseIdempotencyKey('3f2b-checkout:1')).toBe('3f2b-checkout:1');
    expect(parseIdempotencyKey('k'.repeat(128))).toHaveLength(128);
  });

  it('refuses empty, long, spaced, non-ASCII and repeated headers', () => {
    for (const header of ['', 'k'.repeat(129), 'a b', 'clé', 'a, b', ['a', 'b']]) {
      expect(() => parseIdempotencyKey(header), JSON.stringify(header)).toThrow(BadRequestException);
    }
  });
});

describe('requestFingerprint', () => {
  it('is the same for the same request, whatever the order of its lines', () => {
    const one = requestFingerprint(
      [
        { productId: a, quantity: 1 },
        { productId: b, quantity: 2 },
      ],
      address,
      'bitcoin',
    );
    const two = requestFingerprint(
      [
        { productId: b, quantity: 2 },
        { productId: a, quantity: 1 },
      ],
      { ...address },
      'bitcoin',
    );
    expect(one).toBe(two);
  });

  it('differs when a quantity, the address or the payment method differs', () => {
    const base = requestFingerprint([{ productId: a, quantity: 1 }], address, 'bitcoin');
    expect(requestFingerprint([{ productId: a, quantity: 2 }], address, 'bitcoin')).not.toBe(base);
    expect(
      requestFingerprint([{ productId: a, quantity: 1 }], { ...address, city: 'Paris' }, 'bitcoin'),
    ).not.toBe(base);
    expect(requestFingerprint([{ productId: a, quantity: 1 }], address, 'cashapp')).not.toBe(base);
  });
});
