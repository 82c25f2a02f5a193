import { describe, expect, it } from 'vitest';
import { safeRedirect } from './safe-redirect';

describe('safeRedirect', () => {
  it('keeps paths on this site and defaults to home', () => {
    expect(safeRedirect('/shipping')).toBe('/shipping');
    expect(safeRedirect(null)).toBe('/');
  });

  it('refuses other sites', () => {
    expect(safeRedirect('https://evil.example')).toBe('/');
    expect(safeRedirect('//evil.example')).toBe('/');
  });
});
