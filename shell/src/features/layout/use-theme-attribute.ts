import { modeAtom } from '@shop/state';
import { useAtomValue } from 'jotai';
import { useEffect } from 'react';

/**
 * Mirrors the theme mode onto <body data-theme>, which switches the CSS custom properties, and onto <html>,
 * where the start script put the mode it found before the first paint (first-screen/early-theme.ts).
 */
export function useThemeAttribute(): void {
  const mode = useAtomValue(modeAtom);
  useEffect(() => {
    document.body.dataset['theme'] = mode;
    document.documentElement.dataset['theme'] = mode;
  }, [mode]);
}
