import { Suspense } from 'react';
import { Footer } from './footer';

/** The footer on the page server: drawn in place, in the boundary the browser takes it over in (footer-slot.tsx). */
export function FooterSlot() {
  return (
    <Suspense fallback={null}>
      <Footer />
    </Suspense>
  );
}
