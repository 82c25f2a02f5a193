import { describe, expect, it } from 'vitest';
import { formatPrice } from './format-price';

/** The format as Intl writes it (Node carries the full locale data), which formatPrice must match. */
const EN_US_AMOUNT = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const byIntl = (amount: number, symbol: string) =>
  `${amount < 0 ? '-' : ''}${symbol}${EN_US_AMOUNT.format(Math.abs(amount))}`;

describe('formatPrice', () => {
  it('puts the currency symbol first and groups thousands the en-US way with two decimals', () => {
    expect(formatPrice(1234567.5, '$')).toBe('$1,234,567.50');
  });

  it('shows two decimals for whole amounts and rounds to cents', () => {
    expect(formatPrice(499, '€')).toBe('€499.00');
    expect(formatPrice(0.125, '$')).toBe('$0.13');
    expect(formatPrice(1.005, '$')).toBe('$1.01');
    expect(formatPrice(999.995, '$')).toBe('$1,000.00');
  });

  it('puts the minus sign before the symbol', () => {
    expect(formatPrice(-12.3, '$')).toBe('-$12.30');
  });

  it('writes every amount as Intl.NumberFormat en-US does', () => {
    const amounts = [0, 0.001, 0.005, 0.0049, 1e-7, 2.675, 1.345, 10.075, 1e6, 123456789.99, -0.5, -1000];
    // Amounts as the shop has them (cents, thousands) and with more decimals than cents, to round.
    for (let n = 0; n < 20_000; n += 1) {
      const digits = n % 5;
      const amount = Math.round(Math.random() * 10 ** (2 + (n % 7)) * 10 ** digits) / 10 ** digits;
      amounts.push(n % 11 === 0 ? -amount : amount);
    }
    const differing = amounts.filter((amount) => formatPrice(amount, '$') !== byIntl(amount, '$'));
    expect(differing.map((amount) => [amount, formatPrice(amount, '$'), byIntl(amount, '$')])).toEqual([]);
  });
});
