import { describe, expect, it } from 'vitest';
import { escapeRegex } from './escape-regex';

describe('escapeRegex', () => {
  it('matches what was typed literally, metacharacters included', () => {
    for (const text of ['a.b', '(1+1)*2?', '[x]{2}', '^$|\\', 'price: $5.00', 'c++ / c#']) {
      const pattern = new RegExp(escapeRegex(text));
      expect(pattern.test(text), text).toBe(true);
      expect(pattern.source, text).not.toBe(text);
    }
    expect(new RegExp(escapeRegex('a.c')).test('abc')).toBe(false);
    expect(new RegExp(`^${escapeRegex('x*')}$`).test('xxx')).toBe(false);
  });

  it('writes a NUL as \\x00, which the database accepts in a pattern', () => {
    expect(escapeRegex('a\0b')).toBe('a\\x00b');
    expect(new RegExp(escapeRegex('a\0b')).test('a\0b')).toBe(true);
  });

  it('leaves plain text as it is', () => {
    expect(escapeRegex('Ada Lovelace 42')).toBe('Ada Lovelace 42');
  });
});
