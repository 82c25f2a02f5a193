import { describe, expect, it } from 'vitest';
import { formatPrice } from './format-price';

describe('formatPrice', () => {
  it('puts the currency symbol first and groups thousands the en-US way with two decimals', () => {
    expect(formatPrice(1234567.5, '$')).toBe('$1,234,567.50');
  });

  it('shows two decimals for whole amounts and rounds to cents', () => {
    expect(formatPrice(499, '€')).toBe('€499.00');
    expect(formatPrice(0.125, '$')).toBe('$0.13');
  });

  it('puts the minus sign before the symbol', () => {
    expect(formatPrice(-12.3, '$')).toBe('-$12.30');
  });
});
