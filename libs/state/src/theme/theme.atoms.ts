import { atom } from 'jotai';
import { atomWithStorage } from 'jotai/vanilla/utils';
import { validatedLocalStorage } from '../storage/json-storage';
import { STORAGE_KEYS } from '../storage/storage-keys';
import { isThemeMode, systemThemeMode, type ThemeMode } from './theme-mode';

/**
 * Light or dark; starts from the stored mode, else the system preference (docs/product/rules.md, "Theme").
 */
export const modeAtom = atomWithStorage<ThemeMode>(
  STORAGE_KEYS.mode,
  systemThemeMode(),
  validatedLocalStorage(isThemeMode),
  { getOnInit: true },
);

/** Switches between light and dark and saves the choice. */
export const toggleModeAtom = atom(null, (get, set) => {
  set(modeAtom, get(modeAtom) === 'dark' ? 'light' : 'dark');
});
