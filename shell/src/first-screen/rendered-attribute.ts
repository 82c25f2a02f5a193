/**
 * Set on `<html>` by the page server on a page it rendered (shell/src/server/compose-page.ts), so the page's
 * start script, which runs before the body is parsed, knows the data and pictures are in the page already.
 */
export const RENDERED_ATTRIBUTE = 'data-rendered';
