import { prefetchCall } from '@shop/state/prefetch';

// The first screen's data starts now, while the rest of the code loads, instead of once the screen has
// mounted (libs/state/src/http/prefetch.ts): the site's settings on every page, and the catalogue the home
// page shows (mf-catalog's useProducts asks for exactly this path).
prefetchCall('/api/data/all-data');
if (window.location.pathname === '/') prefetchCall('/api/products');

// Asynchronous boundary: shared modules (React, jotai, @shop/state) are negotiated with the federation
// runtime before any of them is evaluated.
import('./bootstrap').catch((error: unknown) => {
  console.error('The shop failed to start', error);
});
