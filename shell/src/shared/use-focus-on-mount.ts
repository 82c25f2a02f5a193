import { useEffect, useRef } from 'react';

/** A ref whose element takes the focus once, when it mounts, if `focus` is true. */
export function useFocusOnMount<T extends HTMLElement>(focus: boolean) {
  const ref = useRef<T>(null);
  useEffect(() => {
    if (focus) ref.current?.focus();
    // Only on mount: the element replaces a stand-in that had the focus.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return ref;
}
