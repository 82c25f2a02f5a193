import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import { useReducedMotion } from './use-reduced-motion';

/**
 * Brings the section the URL's hash names into view (spec §2 "Marketing page"): on the first load and
 * on every navigation to a hash, even the same one again (the footer's links while already here).
 * Smooth unless the visitor asked for less motion; focus moves there too, so the keyboard follows.
 */
export function useHashScroll(): void {
  const { hash, key } = useLocation();
  const reducedMotion = useReducedMotion();

  useEffect(() => {
    const id = decodeURIComponent(hash.slice(1));
    if (!id) return;
    const target = document.getElementById(id);
    if (!target) return;
    target.scrollIntoView({ behavior: reducedMotion ? 'auto' : 'smooth', block: 'start' });
    target.focus({ preventScroll: true });
    // reducedMotion is read when a hash is followed, not a reason to scroll again when it changes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [hash, key]);
}
