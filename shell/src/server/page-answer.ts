// How a page answer is framed for HTTP: its validator, its headers, its compression, and the origin it
// names. The page server (page-server.tsx) and its streamed pages (stream-page.tsx) send pages this way.
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import { REPORTING_ENDPOINTS, inlineScriptHashes, pagePolicy } from '@shop/static-server/page-policy';

/**
 * A page's validator for browsers: weak, since the same HTML sent brotli or gzip is one page to them. A
 * browser that has it asks again with If-None-Match (`Cache-Control: no-cache`) and gets a 304 while the
 * page is the same: the catalogue, the shell's build and the catalog's version unchanged.
 */
export function pageTag(html: string): string {
  return `W/"${createHash('sha256').update(html).digest('base64url').slice(0, 27)}"`;
}

/** Whether If-None-Match names `tag`, by weak comparison (RFC 9110, 13.1.2): `*` or one of its list. */
export function ifNoneMatchNames(header: string | string[] | undefined, tag: string): boolean {
  if (typeof header !== 'string') return false;
  const opaque = (value: string) => value.trim().replace(/^W\//, '');
  return header.trim() === '*' || header.split(',').some((candidate) => opaque(candidate) === opaque(tag));
}

/**
 * A page's headers but for its type, length and encoding (and validator): its policy (the template's one
 * start script by its hash, and a streamed page's inline scripts by their nonce; the page's data blocks are
 * never run, so need none), whether it may be indexed, and how the render service answered.
 */
export function headersOfPage(
  template: string,
  options: { indexable: boolean; renderCache?: string; nonce?: string },
): Record<string, string> {
  const scriptHashes = inlineScriptHashes(template);
  return {
    Vary: 'Accept-Encoding',
    'Cache-Control': 'no-cache',
    'Content-Security-Policy': pagePolicy({
      scriptHashes: options.nonce ? [...scriptHashes, `'nonce-${options.nonce}'`] : scriptHashes,
    }),
    'Reporting-Endpoints': REPORTING_ENDPOINTS,
    'X-Content-Type-Options': 'nosniff',
    ...(options.indexable ? {} : { 'X-Robots-Tag': 'noindex' }),
    // How the render service answered: hit, stale (being rendered again), miss, off (no cache); `streamed`
    // when the page went before it did.
    ...(options.renderCache ? { 'X-Render-Cache': options.renderCache } : {}),
  };
}

/**
 * The page compressed as the browser accepts it: brotli at a quality cheap enough per request (a rendered
 * page is made per request, unlike the build's files, which are compressed once at quality 11), else gzip.
 */
export function compressed(
  html: string,
  acceptEncoding: string | undefined,
): { body: Buffer; encoding?: 'br' | 'gzip' } {
  const accepted = (acceptEncoding ?? '').toLowerCase();
  if (/\bbr\b/.test(accepted))
    return {
      body: brotliCompressSync(html, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5 } }),
      encoding: 'br',
    };
  if (/\bgzip\b/.test(accepted)) return { body: gzipSync(html, { level: 6 }), encoding: 'gzip' };
  return { body: Buffer.from(html) };
}

/**
 * The origin the shopper sees: configured, else from the proxy's forwarded headers (Kong sends the host
 * without its port, and the port apart), else the Host.
 */
export function requestOrigin(req: IncomingMessage, configured?: string): string {
  if (configured) return configured.replace(/\/+$/, '');
  const first = (value: string | string[] | undefined) =>
    (Array.isArray(value) ? value[0] : value)?.split(',')[0]?.trim() || undefined;
  const proto = first(req.headers['x-forwarded-proto']) === 'https' ? 'https' : 'http';
  const forwardedHost = first(req.headers['x-forwarded-host']);
  let host = forwardedHost ?? first(req.headers.host) ?? 'localhost';
  const port = first(req.headers['x-forwarded-port']);
  const defaultPort = proto === 'https' ? '443' : '80';
  if (forwardedHost && !/:\d+$/.test(host) && port && /^\d+$/.test(port) && port !== defaultPort)
    host = `${host}:${port}`;
  return /^[A-Za-z0-9.\-:[\]]+$/.test(host) ? `${proto}://${host}` : 'http://localhost';
}
