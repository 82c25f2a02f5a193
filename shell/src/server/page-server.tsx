// The shell team's page server (docs/decisions/0020): answers page requests with the storefront rendered
// on the server. The catalogue's screens come from the catalog remote's render service, as fragments in the
// shell's own server-rendered layout; every other page is the client-rendered page of today, not indexed.
// A remote that is slow, down or of another version than remotes.json names costs only its part: that part
// is drawn in the browser. The shell's static server (or nginx) falls back to the plain page if this server fails.
import { REPORTING_ENDPOINTS, inlineScriptHashes, pagePolicy } from '@shop/static-server/page-policy';
import { shopStoreFor } from './server-store';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createHash, randomUUID } from 'node:crypto';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import { Provider } from 'jotai';
import { LRUCache } from 'lru-cache';
import { matchPath } from 'react-router-dom';
import { StaticRouter } from 'react-router';
import { CATALOG_ROUTES, SCREEN_PATHS } from '../app/app-routes';
import { Storefront } from '../app/app';
import { SCREEN_TREE_POSITION } from '../features/layout/layout';
import { formatTreePosition } from '@shop/ui';
import { listen, renderToHtml, splitHead, type RunningServer } from '@shop/ui/server';
import { parseRemotesManifest, type RemoteName, type RemotesManifest } from '../federation/remotes-manifest';
import { DRAWN_IN_BROWSER_DIGEST } from '../federation/drawn-in-browser';
import { DrawnInBrowser, ServerFragmentContext, type ServerFragment } from '../federation/server-fragment';
import { composePage, isRemoteFragment, type RemoteFragment } from './compose-page';
import { streamPage } from './stream-page';
import { SITE_SETTINGS_API } from '@shop/contracts';
import type { ServerAnswer } from '@shop/state/first-screen';

export interface PageServerOptions {
  /** The shell build's index.html, read per request (a local rebuild in place is served at once). */
  template: () => Promise<string>;
  /** remotes.json as the browser reads it, per request: which version of each remote the page runs. */
  remotesManifest: () => Promise<unknown>;
  /**
   * The render service of a remote's version (`http://mf-catalog-render:4101`), if it has one; the page
   * checks the version the service answers with against remotes.json's either way.
   */
  renderService: (remote: RemoteName, version: string | undefined) => string | undefined;
  /** The shop's public origin; by default the one the request came through (the gateway's Host). */
  publicOrigin?: string;
  /** The longest the page waits for a remote's render before leaving that part to the browser. */
  fragmentTimeoutMs?: number;
  /**
   * How long the page waits for a remote's render before it sends its layout alone and streams the screen
   * in after it (stream-page.tsx): a slow remote delays only its part. Never before the page server has seen
   * the site settings the layout is drawn with (in an earlier render of the remote).
   */
  streamAfterMs?: number;
  /** How many bytes of composed catalogue pages are kept for reuse while their fragments stay unchanged. */
  composedPagesBytes?: number;
  port?: number;
  host?: string;
  log?: (entry: Record<string, unknown>) => void;
}

export type PageServer = RunningServer;

/**
 * A catalogue page as composed from one fragment: while the render service answers that the fragment is
 * unchanged (its ETag, `304`), the page is sent again as it is, compressed once per encoding.
 */
interface ComposedPage {
  /** The fragment's validator, as its render service sent it. */
  fragmentTag: string;
  /** The fragment itself, for a page streamed while the render service answered that it is unchanged. */
  fragment: RemoteFragment;
  version: string;
  template: string;
  status: number;
  html: string;
  /** The page's own validator for browsers ({@link pageTag}), computed once. */
  tag: string;
  encoded: Map<string, { body: Buffer; encoding?: 'br' | 'gzip' }>;
}

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

/** A remote's render of the screen: new, or the one the page last composed, unchanged. */
type FragmentAnswer =
  | { kind: 'new'; fragment: RemoteFragment; tag?: string; cache?: string }
  | { kind: 'unchanged'; page: ComposedPage; cache?: string };

/** The remote's render in an answer, new or the one an unchanged page was composed from. */
function fragmentOf(answer: FragmentAnswer | undefined): RemoteFragment | undefined {
  return answer?.kind === 'unchanged' ? answer.page.fragment : answer?.fragment;
}

const STILL_RENDERING = Symbol('still rendering');

/** What `pending` settles to within `ms`, else STILL_RENDERING (it goes on). */
function within<T>(pending: Promise<T>, ms: number): Promise<T | typeof STILL_RENDERING> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<typeof STILL_RENDERING>((resolve) => {
    timer = setTimeout(() => resolve(STILL_RENDERING), ms);
  });
  return Promise.race([pending, late]).finally(() => clearTimeout(timer));
}

/** The storefront as the page server renders it: the screen's store, the URL, and the remote's place. */
function storefront(
  answers: Readonly<Record<string, ServerAnswer>>,
  origin: string,
  path: string,
  marker: ServerFragment['marker'],
) {
  return (
    <Provider store={shopStoreFor(answers, origin)}>
      <StaticRouter location={path}>
        <ServerFragmentContext value={{ marker }}>
          <Storefront />
        </ServerFragmentContext>
      </StaticRouter>
    </Provider>
  );
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

/** The catalogue screen a path shows, with the route pattern it is placed on. */
export function catalogScreenFor(
  pathname: string,
): { remote: RemoteName; screen: string; route: string } | undefined {
  for (const [route, exposed] of CATALOG_ROUTES) {
    if (!matchPath({ path: route, end: true }, pathname)) continue;
    const [remote, screen] = exposed.split('/') as [RemoteName, string];
    return { remote, screen, route };
  }
  return undefined;
}

/** Whether some screen answers this path (else the page is the not-found screen, with a 404). */
export function isKnownPath(pathname: string): boolean {
  return SCREEN_PATHS.some((path) => matchPath({ path, end: true }, pathname) !== null);
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

export async function startPageServer(options: PageServerOptions): Promise<PageServer> {
  const {
    port = 0,
    host = '0.0.0.0',
    fragmentTimeoutMs = 1_500,
    streamAfterMs = 500,
    composedPagesBytes = 32 * 1024 * 1024,
  } = options;
  /** The site settings of the remote's latest render: what a streamed page's layout is drawn with. */
  let layoutSettings: ServerAnswer | undefined;
  const log = options.log ?? ((entry) => process.stdout.write(`${JSON.stringify(entry)}\n`));
  // A screen left to the browser is not a failure: React tells the browser so by this digest.
  const renderError = (error: unknown) => {
    if (error instanceof DrawnInBrowser) return DRAWN_IN_BROWSER_DIGEST;
    log({ msg: 'render error', error: error instanceof Error ? error.message : String(error) });
    return undefined;
  };

  /** The remote's render of the screen, if it came in time and is of the version the page will run. */
  const fetchFragment = async (
    target: { remote: RemoteName; screen: string; route: string },
    remotes: Promise<RemotesManifest>,
    url: string,
    origin: string,
    traceparent: string | undefined,
    composed: ComposedPage | undefined,
  ): Promise<FragmentAnswer | undefined> => {
    try {
      const version = (await remotes)[target.remote]?.version;
      const service = options.renderService(target.remote, version);
      if (!service) return undefined;
      const known = composed && version !== undefined && composed.version === version ? composed : undefined;
      const query = new URLSearchParams({
        screen: target.screen,
        route: target.route,
        url,
        origin,
        position: formatTreePosition(SCREEN_TREE_POSITION),
      });
      const response = await fetch(`${service}/fragment?${query}`, {
        headers: {
          Accept: 'application/json',
          ...(traceparent ? { traceparent } : {}),
          ...(known ? { 'If-None-Match': known.fragmentTag } : {}),
        },
        signal: AbortSignal.timeout(fragmentTimeoutMs),
      });
      const cache = response.headers.get('x-render-cache') ?? undefined;
      if (response.status === 304 && known) return { kind: 'unchanged', page: known, cache };
      if (!response.ok) throw new Error(`${target.remote} answered ${response.status}`);
      const fragment: unknown = await response.json();
      if (!isRemoteFragment(fragment)) throw new Error(`${target.remote} answered no fragment`);
      // The browser hydrates with the version remotes.json names: another version's HTML would not match.
      if (version !== undefined && fragment.version !== version) {
        log({
          msg: 'fragment of another version',
          remote: target.remote,
          rendered: fragment.version,
          named: version,
        });
        return undefined;
      }
      return { kind: 'new', fragment, tag: response.headers.get('etag') ?? undefined, cache };
    } catch (error) {
      log({
        msg: 'fragment unavailable',
        remote: target.remote,
        url,
        error: error instanceof Error ? error.message : String(error),
      });
      return undefined;
    }
  };

  /**
   * Composed catalogue pages by origin and path, while their fragments stay unchanged: bounded by bytes
   * (each page's HTML, and room for its compressed forms, a fraction of it), least recently used first.
   */
  const composedPages = new LRUCache<string, ComposedPage>({
    maxSize: composedPagesBytes,
    sizeCalculation: (page) => Math.max(1, Math.ceil((page.html.length + page.fragment.html.length) * 1.5)),
  });

  const sendPage = (
    res: ServerResponse,
    req: IncomingMessage,
    status: number,
    page: { html: string; template: string; tag?: string; encoded?: ComposedPage['encoded'] },
    indexable: boolean,
    renderCache?: string,
  ) => {
    const tag = page.tag ?? pageTag(page.html);
    // Sent with a 304 too: a browser replaces the stored page's headers with a 304's, and a page left
    // without its policy gets the gateway's locked-down one (no script, no style runs).
    const pageHeaders = {
      ...headersOfPage(page.template, { indexable, renderCache }),
      ETag: tag,
    };
    if (status === 200 && ifNoneMatchNames(req.headers['if-none-match'], tag)) {
      res.writeHead(304, pageHeaders);
      res.end();
      return;
    }
    const acceptEncoding = req.headers['accept-encoding'];
    const accepted = /\bbr\b/i.test(acceptEncoding ?? '')
      ? 'br'
      : /\bgzip\b/i.test(acceptEncoding ?? '')
        ? 'gzip'
        : '';
    let encodedPage = page.encoded?.get(accepted);
    if (!encodedPage) {
      encodedPage = compressed(page.html, acceptEncoding);
      page.encoded?.set(accepted, encodedPage);
    }
    const { body, encoding } = encodedPage;
    res.writeHead(status, {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Length': body.length,
      ...(encoding ? { 'Content-Encoding': encoding } : {}),
      ...pageHeaders,
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://page');
    if (url.pathname === '/health/live' || url.pathname === '/health/ready') {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
      res.end(JSON.stringify({ status: 'ok' }));
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { 'Content-Type': 'application/json', Allow: 'GET, HEAD' });
      res.end(JSON.stringify({ message: 'Method not allowed' }));
      return;
    }
    const template = await options.template();
    const target = catalogScreenFor(url.pathname);
    if (!target) {
      // Cart, checkout, account and admin pages: drawn in the browser, never indexed; unknown paths 404.
      sendPage(res, req, isKnownPath(url.pathname) ? 200 : 404, { html: template, template }, false);
      return;
    }
    const origin = requestOrigin(req, options.publicOrigin);
    const path = `${url.pathname}${url.search}`;
    const traceparent =
      typeof req.headers['traceparent'] === 'string' ? req.headers['traceparent'] : undefined;
    const pageKey = `${origin} ${path}`;
    const kept = composedPages.get(pageKey);
    const remotes = options.remotesManifest().then(parseRemotesManifest);
    const pending = fetchFragment(
      target,
      remotes,
      path,
      origin,
      traceparent,
      kept?.template === template ? kept : undefined,
    ).then((arrived) => {
      const settings = fragmentOf(arrived)?.answers[SITE_SETTINGS_API];
      if (settings?.ok) layoutSettings = settings;
      return arrived;
    });
    // A remote slower than the layout delays only its part: the layout goes first, the screen after it.
    const settings = layoutSettings;
    const answer = req.method === 'GET' && settings ? await within(pending, streamAfterMs) : await pending;
    if (answer === STILL_RENDERING) {
      await streamPage(req, res, {
        template,
        path,
        origin,
        remote: target.remote,
        version: await remotes.then(
          (manifest) => manifest[target.remote]?.version,
          () => undefined,
        ),
        settings: settings!,
        fragment: pending.then(fragmentOf),
        storefront: (answers, marker) => storefront(answers, origin, path, marker),
        headers: (nonce) => headersOfPage(template, { indexable: true, nonce, renderCache: 'streamed' }),
        onError: renderError,
      });
      return;
    }
    if (answer?.kind === 'unchanged') {
      sendPage(res, req, answer.page.status, answer.page, true, answer.cache);
      return;
    }
    const fragment = answer?.fragment;
    const answers = fragment?.answers ?? {};
    const marker = fragment ? `shop-fragment-${randomUUID()}` : null;
    const rendered = await renderToHtml(storefront(answers, origin, path, marker), { onError: renderError });
    const shell = splitHead(rendered);
    const body = fragment && marker ? shell.body.replace(marker, () => fragment.html) : shell.body;
    const page = composePage(template, {
      head: `${fragment?.head ?? ''}${shell.head}`,
      body,
      data: { answers, origin, remotes: fragment ? { [target.remote]: fragment.version } : {} },
    });
    const status = fragment?.status ?? 200;
    if (!fragment || !answer?.tag) {
      sendPage(res, req, status, { html: page, template }, true, answer?.cache);
      return;
    }
    const composed: ComposedPage = {
      fragmentTag: answer.tag,
      fragment,
      version: fragment.version,
      template,
      status,
      html: page,
      tag: pageTag(page),
      encoded: new Map(),
    };
    composedPages.set(pageKey, composed);
    sendPage(res, req, status, composed, true, answer.cache);
  };

  return listen(
    (req, res) =>
      handle(req, res).catch((error: unknown) => {
        log({
          msg: 'page failed',
          url: req.url,
          error: error instanceof Error ? error.message : String(error),
        });
        throw error;
      }),
    { port, host, failure: 'The page could not be rendered' },
  );
}
