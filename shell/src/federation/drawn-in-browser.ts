/**
 * The digest React carries to the browser for a screen the page server left to it on purpose (its remote
 * was slow, down, or of another version): not a failed hydration (shell/src/bootstrap.tsx).
 */
export const DRAWN_IN_BROWSER_DIGEST = 'drawn-in-browser';
