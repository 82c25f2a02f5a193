import { modeAtom, toggleModeAtom } from '@shop/state';
import { useHydrated } from '@shop/ui';
import { useAtomValue, useSetAtom } from 'jotai';
import topBar from './top-bar.module.css';

/** Switches light/dark; the choice is saved (docs/product/rules.md, "Theme"). */
export function ThemeToggle() {
  const saved = useAtomValue(modeAtom);
  // The saved mode is the browser's: a server-rendered page shows the light mode's button until hydrated.
  const hydrated = useHydrated();
  const mode = hydrated ? saved : 'light';
  const toggle = useSetAtom(toggleModeAtom);
  const next = mode === 'dark' ? 'light' : 'dark';
  return (
    <button
      type="button"
      className={topBar['barButton']}
      onClick={toggle}
      // A press before the page's code has taken the HTML over would reach no handler.
      disabled={!hydrated}
      aria-label={`Switch to ${next} mode`}
    >
      <span aria-hidden="true">{mode === 'dark' ? '☀' : '☾'}</span>
    </button>
  );
}
