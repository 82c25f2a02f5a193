import { Suspense, lazy, useEffect } from 'react';
import { useLocation } from 'react-router-dom';
// The footer's styles stay with the layout's (the first screen's stylesheet): the server draws the footer
// with the page, and it must not wait for its code to look right.
import './footer.module.css';
import { whenNearViewport } from './when-near-viewport';

let fetchNow!: () => void;
/** Settles when the footer's code must come whether or not the footer is near (below). */
const wanted = new Promise<void>((resolve) => (fetchNow = resolve));
/** The location the page was drawn at (a reload keeps the history entry's key, so it need not be 'default'). */
let drawnAt: string | undefined;

/**
 * The footer, whose code comes once the footer comes near the viewport: it starts below the fold (the main
 * area is at least a screen tall), so the first screen neither fetches nor runs it. Until then its links are
 * the server's plain links; a page the browser draws itself (no footer from the server) fetches it at once.
 */
const Footer = lazy(async () => {
  await Promise.race([whenNearViewport(document.querySelector('#main ~ footer')), wanted]);
  const { Footer: component } = await import(/* webpackChunkName: "footer" */ './footer');
  return { default: component };
});

/**
 * In the footer's place while its code is on its way, when the browser draws it: hydration never shows this (it
 * keeps the server's footer instead), so it shows only when React has let the server's footer go (a page whose
 * HTML it drew again) and there is no footer left to come near.
 */
function FetchingFooter() {
  useEffect(() => fetchNow(), []);
  return null;
}

/** The footer in a boundary of its own: hydration leaves the server's footer as it is until its code comes. */
export function FooterSlot() {
  // A move to another screen changes the location the footer's links read, and React can carry that into the
  // footer only once it has taken the footer over: the move (a transition) waits for it. So the first move
  // starts the footer's code at once, beside the next screen's own; it is not left waiting for a scroll.
  const { key } = useLocation();
  drawnAt ??= key;
  if (key !== drawnAt) fetchNow();
  return (
    <Suspense fallback={<FetchingFooter />}>
      <Footer />
    </Suspense>
  );
}
