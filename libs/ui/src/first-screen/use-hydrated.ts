import { useSyncExternalStore } from 'react';

const subscribeToNothing = () => () => undefined;

/**
 * False while React renders on the server or hydrates the server's HTML, true afterwards (and from the
 * start of a page rendered in the browser). What only the browser knows (the stored cart, the signed-in user,
 * the saved theme) is shown once this is true, so hydration sees what the server drew; a control that
 * cannot work before then says so.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribeToNothing,
    () => true,
    () => false,
  );
}
