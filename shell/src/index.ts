import { prefetchCall } from '@shop/state/prefetch';
import { REMOTES_MANIFEST_URL } from './federation/remotes-manifest';

// The first screen's data starts now, while the rest of the code loads, instead of once the screen has
// mounted (libs/state/src/http/prefetch.ts): the remotes manifest and the site's settings on every page,
// and the catalogue the home page shows (mf-catalog's useProducts asks for exactly this path).
prefetchCall(REMOTES_MANIFEST_URL, 'no-store');
prefetchCall('/api/data/all-data');
if (window.location.pathname === '/') prefetchCall('/api/products');

// Asynchronous boundary: shared modules (React, jotai, @shop/state) are negotiated with the federation
// runtime before any of them is evaluated.
import('./bootstrap').catch((error: unknown) => {
  console.error('The shop failed to start', error);
});
