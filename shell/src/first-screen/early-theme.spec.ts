import { STORAGE_KEYS, modeAtom } from '@shop/state';
import { createStore } from 'jotai';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MODE_STORAGE_KEY, applyEarlyTheme } from './early-theme';

// jsdom has no matchMedia: each test says what the system prefers.
const systemPrefersDark = (dark: boolean) => {
  window.matchMedia = vi.fn(
    (query: string) => ({ matches: dark && query.includes('dark'), media: query }) as MediaQueryList,
  );
};

afterEach(() => {
  localStorage.clear();
  delete document.documentElement.dataset['theme'];
  delete (window as { matchMedia?: unknown }).matchMedia;
});

describe('applyEarlyTheme', () => {
  it("reads the mode where @shop/state's modeAtom stores it", () => {
    expect(MODE_STORAGE_KEY).toBe(STORAGE_KEYS.mode);
    systemPrefersDark(false);
    createStore().set(modeAtom, 'dark');
    applyEarlyTheme();
    expect(document.documentElement.dataset['theme']).toBe('dark');
  });

  it("takes the stored choice over the system's", () => {
    systemPrefersDark(true);
    localStorage.setItem(MODE_STORAGE_KEY, JSON.stringify('light'));
    applyEarlyTheme();
    expect(document.documentElement.dataset['theme']).toBe('light');
  });

  it("falls back to the system's mode when nothing valid is stored", () => {
    systemPrefersDark(true);
    applyEarlyTheme();
    expect(document.documentElement.dataset['theme']).toBe('dark');
    localStorage.setItem(MODE_STORAGE_KEY, '{not json');
    systemPrefersDark(false);
    applyEarlyTheme();
    expect(document.documentElement.dataset['theme']).toBe('light');
    localStorage.setItem(MODE_STORAGE_KEY, JSON.stringify('sepia'));
    applyEarlyTheme();
    expect(document.documentElement.dataset['theme']).toBe('light');
  });
});
