import { useEffect, useEffectEvent } from 'react';
import { useLocation } from 'react-router-dom';
import { useReducedMotion } from './use-reduced-motion';

/**
 * Brings the section the URL's hash names into view (docs/product/screens.md, "Marketing page"): on the first
 * load and on every navigation to a hash, even the same one again (the footer's links while already here).
 * Smooth unless the visitor asked for less motion; focus moves there too, so the keyboard follows.
 */
export function useHashScroll(): void {
  const { hash, key } = useLocation();
  const reducedMotion = useReducedMotion();

  // Reads the motion setting at the moment a hash is followed; a change of setting scrolls nothing.
  const bringIntoView = useEffectEvent((id: string) => {
    const target = document.getElementById(id);
    if (!target) return;
    target.scrollIntoView({ behavior: reducedMotion ? 'auto' : 'smooth', block: 'start' });
    target.focus({ preventScroll: true });
  });

  useEffect(() => {
    // Section ids are plain words, so the hash is used as it is (decoding a malformed one would throw).
    const id = hash.slice(1);
    if (id) bringIntoView(id);
  }, [hash, key]);
}
