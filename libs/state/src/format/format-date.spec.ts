import { describe, expect, it } from 'vitest';
import { formatDate } from './format-date';

describe('formatDate', () => {
  it('writes the month in words and the time on a 24-hour clock', () => {
    expect(formatDate('2026-11-23T21:05:00Z', 'UTC')).toBe('November 23, 2026 at 21:05');
  });

  it('shows midnight as 00, not 24 or 12 AM', () => {
    expect(formatDate('2026-01-02T00:07:00Z', 'UTC')).toBe('January 2, 2026 at 00:07');
  });

  it('leaves missing and unreadable dates empty', () => {
    expect(formatDate(undefined)).toBe('');
    expect(formatDate(null)).toBe('');
    expect(formatDate('not a date')).toBe('');
  });
});
