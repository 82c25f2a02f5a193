// Asynchronous boundary: shared modules (React, jotai, @shop/state) are negotiated with the federation
// runtime before any of them is evaluated.
import('./bootstrap').catch((error: unknown) => {
  console.error('The shop failed to start', error);
});
