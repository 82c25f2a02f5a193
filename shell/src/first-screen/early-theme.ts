// The theme mode on <html data-theme> before the first paint: the stored choice, else the system's. A page
// the server rendered shows its content before the shell's code runs, so without this a shopper who chose
// dark would see it light until the layout mirrors the mode onto <body> (use-theme-attribute.ts). The key
// and its JSON value are @shop/state's (STORAGE_KEYS.mode, modeAtom), spelled here without its code to keep
// the inline start script small; early-theme.spec.ts holds them to @shop/state's.
export const MODE_STORAGE_KEY = 'mode';

export function applyEarlyTheme(): void {
  let mode: unknown = null;
  try {
    mode = JSON.parse(localStorage.getItem(MODE_STORAGE_KEY) ?? 'null');
  } catch {
    // Unreadable or unavailable storage: the system's mode.
  }
  if (mode !== 'dark' && mode !== 'light')
    mode = window.matchMedia?.('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
  document.documentElement.dataset['theme'] = mode as string;
}
