/** Colour scheme of the storefront. */
export type ThemeMode = 'dark' | 'light';

/** True for the two known modes. */
export function isThemeMode(value: unknown): value is ThemeMode {
  return value === 'dark' || value === 'light';
}

/** The mode the operating system asks for: dark when it prefers dark, else light. */
export function systemThemeMode(): ThemeMode {
  const query =
    typeof window !== 'undefined' ? window.matchMedia?.('(prefers-color-scheme: dark)') : undefined;
  return query?.matches ? 'dark' : 'light';
}
