import { type RefObject, useEffect, useState } from 'react';
import { whenNearViewport } from './when-near-viewport';

/**
 * Whether the element has come into the viewport (and stays true from then on): content below the fold waits
 * for it, so that its requests do not share the network with the first screen's. At once where the browser
 * has no IntersectionObserver. No margin: a page's footer starts just below the fold (layout.module.css), so
 * any margin would take it in on every first screen.
 */
export function useNearViewport(ref: RefObject<Element | null>): boolean {
  const [near, setNear] = useState(() => typeof IntersectionObserver === 'undefined');
  useEffect(() => {
    const element = ref.current;
    if (near || !element) return undefined;
    const watch = new AbortController();
    void whenNearViewport(element, watch.signal).then(() => setNear(true));
    return () => watch.abort();
  }, [near, ref]);
  return near;
}
