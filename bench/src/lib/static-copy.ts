// The static copy a rendered page's LCP is compared with (docs/performance.md, "Server rendering"): the same
// HTML, served from another origin, without any script.

/** The page without JavaScript: no script element (code or data block), no preload or modulepreload of code. */
export function withoutScripts(html: string): string {
  return html
    .replace(/<script\b[^>]*>[\s\S]*?<\/script\s*>/gi, '')
    .replace(/<link\b[^>]*>/gi, (link) =>
      /\brel=["']?modulepreload\b/i.test(link) ||
      (/\brel=["']?preload\b/i.test(link) && /\bas=["']?script\b/i.test(link))
        ? ''
        : link,
    );
}

/**
 * The copy served from another origin: without scripts, and with the stylesheets the shop links by its full
 * URL (a screen's, docs/rendering.md, "Styles") linked by path, so the copy's server fetches them through the
 * same gateway. Left on the shop's origin they are refused to the copy (the gateway answers static files
 * with Cross-Origin-Resource-Policy: same-origin), and the copy would paint without a stylesheet the
 * shop's page waits for.
 */
export function staticCopyOf(html: string, shopOrigin: string): string {
  const origin = new URL(shopOrigin).origin;
  return withoutScripts(html).replace(/<link\b[^>]*>/gi, (link) =>
    /\brel=["']?stylesheet\b/i.test(link) ? link.replaceAll(`href="${origin}/`, 'href="/') : link,
  );
}
