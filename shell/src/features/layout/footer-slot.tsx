import { Suspense, lazy } from 'react';
// The footer's styles stay with the layout's (the first screen's stylesheet): the server draws the footer
// with the page, and it must not wait for its code to look right.
import './footer.module.css';
import { whenNearViewport } from './when-near-viewport';

/**
 * The footer, whose code comes once the footer comes near the viewport: it starts below the fold (the main
 * area is at least a screen tall), so the first screen neither fetches nor runs it. Until then its links are
 * the server's plain links; a page the browser draws itself (no footer from the server) fetches it at once.
 */
const Footer = lazy(async () => {
  await whenNearViewport(document.querySelector('#main ~ footer'));
  const { Footer: component } = await import(/* webpackChunkName: "footer" */ './footer');
  return { default: component };
});

/** The footer in a boundary of its own: hydration leaves the server's footer as it is until its code comes. */
export function FooterSlot() {
  return (
    <Suspense fallback={null}>
      <Footer />
    </Suspense>
  );
}
