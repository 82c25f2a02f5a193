// The static server's way to the shell's page server (docs/decisions/0020): a page request is passed on to
// it, its answer passed back as it arrives (compressed, streamed), and a page it cannot give in time is
// answered as without it.
import { request as httpRequest } from 'node:http';

/** What the page server's answer keeps on its way to the browser. */
const PAGE_HEADERS = [
  'content-type',
  'content-encoding',
  'vary',
  'cache-control',
  'content-security-policy',
  'reporting-endpoints',
  'x-robots-tag',
  'x-content-type-options',
  'x-render-cache',
  'etag',
  // A streamed page (its slow part after its layout) says so to nginx in front, which then buffers none of it.
  'x-accel-buffering',
];

/** The longest a page waits for the page server before it is answered without it. */
const PAGE_SERVER_TIMEOUT_MS = 5_000;

/**
 * Asks the page server for the page; an answer it could not give (no answer, 5xx, too slow) is `fallback`:
 * the page as it is without server rendering, drawn in the browser.
 * @param {import('node:http').IncomingMessage} req
 * @param {import('node:http').ServerResponse} res
 * @param {string} pages
 * @param {() => void} fallback
 */
export function proxyPage(req, res, pages, fallback) {
  const first = (value) => (Array.isArray(value) ? value[0] : value);
  /** @type {Record<string, string>} */
  const headers = { accept: first(req.headers.accept) ?? 'text/html' };
  const acceptEncoding = first(req.headers['accept-encoding']);
  if (acceptEncoding) headers['accept-encoding'] = acceptEncoding;
  // The browser's copy of the page: the page server answers 304 while it is the same (its ETag).
  const ifNoneMatch = first(req.headers['if-none-match']);
  if (ifNoneMatch) headers['if-none-match'] = ifNoneMatch;
  const forwardedHost = first(req.headers['x-forwarded-host']) ?? first(req.headers.host);
  if (forwardedHost) headers['x-forwarded-host'] = forwardedHost;
  for (const name of ['x-forwarded-proto', 'x-forwarded-port']) {
    const value = first(req.headers[name]);
    if (value) headers[name] = value;
  }
  const traceparent = first(req.headers.traceparent);
  if (traceparent) headers.traceparent = traceparent;
  // node:http rather than fetch: fetch would undo the page's compression, which is passed on as it is.
  const target = new URL(req.url ?? '/', pages);
  let settled = false;
  const giveUp = () => {
    upstream.destroy();
    if (settled) return;
    settled = true;
    if (!res.headersSent) fallback();
  };
  const upstream = httpRequest(
    target,
    { method: req.method, headers, timeout: PAGE_SERVER_TIMEOUT_MS },
    (response) => {
      const status = response.statusCode ?? 502;
      if (status >= 500) {
        response.resume();
        giveUp();
        return;
      }
      // Passed on as it arrives: a streamed page's layout reaches the browser before its slow part. Once
      // the page has started, a page server that fails cuts the answer (the browser sees it broken, not whole).
      settled = true;
      /** @type {Record<string, string>} */
      const kept = {};
      for (const name of [...PAGE_HEADERS, 'content-length']) {
        const value = response.headers[name];
        if (typeof value === 'string') kept[name] = value;
      }
      res.writeHead(status, kept);
      if (status === 304 || req.method === 'HEAD') {
        response.resume();
        res.end();
        return;
      }
      response.on('close', () => {
        if (!response.complete) res.destroy();
      });
      response.pipe(res);
    },
  );
  upstream.on('timeout', giveUp);
  upstream.on('error', giveUp);
  upstream.end();
}
