import { modeAtom } from '@shop/state';
import { useAtomValue } from 'jotai';
import { useEffect } from 'react';

/** Mirrors the theme mode onto <body data-theme>, which switches the CSS custom properties. */
export function useThemeAttribute(): void {
  const mode = useAtomValue(modeAtom);
  useEffect(() => {
    document.body.dataset['theme'] = mode;
  }, [mode]);
}
