import { describe, expect, it } from 'vitest';
import { fromCents, isPaymentMethod, priceOrder, priceOrderInCents, toCents } from './pricing';

describe('toCents', () => {
  it('converts two-decimal prices exactly despite binary floating point', () => {
    expect(toCents(19.99)).toBe(1999);
    expect(toCents(0.29)).toBe(29);
    expect(toCents(1129.99)).toBe(112999);
    expect(toCents(0)).toBe(0);
  });

  it('rounds a third decimal half up', () => {
    expect(toCents(1.005)).toBe(101);
    expect(toCents(1.004)).toBe(100);
    expect(toCents(2.675)).toBe(268);
  });

  it('refuses negative and non-finite amounts', () => {
    expect(() => toCents(-1)).toThrow(RangeError);
    expect(() => toCents(Number.NaN)).toThrow(RangeError);
    expect(() => toCents(Number.POSITIVE_INFINITY)).toThrow(RangeError);
  });

  it('goes back to two decimals', () => {
    expect(fromCents(1999)).toBe(19.99);
    expect(fromCents(5)).toBe(0.05);
  });
});

describe('priceOrder', () => {
  it('adds 1% tax and no discount for apple Pay and cashapp', () => {
    const lines = [
      { price: 500, quantity: 2 },
      { price: 25.5, quantity: 1 },
    ];
    for (const method of ['apple Pay', 'cashapp']) {
      expect(priceOrder(lines, method)).toEqual({
        itemsPrice: 1025.5,
        taxPrice: 10.26,
        discount: 0,
        shippingPrice: 0,
        totalPrice: 1035.76,
      });
    }
  });

  it('takes 10% of the items price off for bitcoin', () => {
    expect(priceOrder([{ price: 599.99, quantity: 1 }], 'bitcoin')).toEqual({
      itemsPrice: 599.99,
      taxPrice: 6,
      discount: 60,
      shippingPrice: 0,
      totalPrice: 545.99,
    });
  });

  it('rounds tax and discount half up on whole cents', () => {
    // 1% of 50 cents is exactly half a cent: up to 1 cent. 1% of 49 cents is 0.49: down to 0.
    expect(priceOrderInCents([{ price: 0.5, quantity: 1 }], 'cashapp').taxPrice).toBe(1);
    expect(priceOrderInCents([{ price: 0.49, quantity: 1 }], 'cashapp').taxPrice).toBe(0);
    // 10% of 15 cents is 1.5 cents: up to 2. 10% of 14 cents is 1.4: down to 1.
    expect(priceOrderInCents([{ price: 0.15, quantity: 1 }], 'bitcoin').discount).toBe(2);
    expect(priceOrderInCents([{ price: 0.14, quantity: 1 }], 'bitcoin').discount).toBe(1);
  });

  it('computes in cents, so amounts that float arithmetic gets wrong come out exact', () => {
    // 0.1 + 0.2 in floating point is 0.30000000000000004.
    const prices = priceOrder(
      [
        { price: 0.1, quantity: 1 },
        { price: 0.2, quantity: 1 },
      ],
      'cashapp',
    );
    expect(prices.itemsPrice).toBe(0.3);
    expect(priceOrder([{ price: 19.99, quantity: 3 }], 'cashapp').itemsPrice).toBe(59.97);
  });

  it('keeps total = items + tax − discount + shipping for any order', () => {
    for (let i = 1; i < 500; i += 7) {
      const lines = [
        { price: i / 100, quantity: (i % 5) + 1 },
        { price: (i * 37) / 100, quantity: 1 },
      ];
      for (const method of ['bitcoin', 'cashapp']) {
        const cents = priceOrderInCents(lines, method);
        expect(cents.totalPrice).toBe(
          cents.itemsPrice + cents.taxPrice - cents.discount + cents.shippingPrice,
        );
        expect(Number.isInteger(cents.taxPrice) && Number.isInteger(cents.discount)).toBe(true);
      }
    }
  });

  it('answers zero for no lines and refuses quantities that are not positive whole numbers', () => {
    expect(priceOrder([], 'bitcoin').totalPrice).toBe(0);
    expect(() => priceOrder([{ price: 1, quantity: 0 }], 'bitcoin')).toThrow(RangeError);
    expect(() => priceOrder([{ price: 1, quantity: 1.5 }], 'bitcoin')).toThrow(RangeError);
    expect(() => priceOrder([{ price: -1, quantity: 1 }], 'bitcoin')).toThrow(RangeError);
  });
});

describe('isPaymentMethod', () => {
  it("accepts exactly the payment screen's choices", () => {
    expect(['bitcoin', 'apple Pay', 'cashapp'].every(isPaymentMethod)).toBe(true);
    for (const other of ['PayPal', 'Bitcoin', 'apple pay', '', undefined, 1]) {
      expect(isPaymentMethod(other)).toBe(false);
    }
  });
});
