// The shell team's page server (docs/decisions/0020): answers page requests with the storefront rendered
// on the server. The catalogue's screens come from the catalog remote's render service, as fragments in the
// shell's own server-rendered layout; every other page is the client-rendered page of today, not indexed.
// A remote that is slow, down or of another version than remotes.json names costs only its part: that part
// is drawn in the browser. The shell's static server (or nginx) falls back to the plain page if this server fails.
import { shopStoreFor } from './server-store';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { Provider } from 'jotai';
import { LRUCache } from 'lru-cache';
import { StaticRouter } from 'react-router';
import { Storefront } from '../app/app';
import { listen, renderToHtml, splitHead, type RunningServer } from '@shop/ui/server';
import { parseRemotesManifest, type RemoteName } from '../federation/remotes-manifest';
import { DRAWN_IN_BROWSER_DIGEST } from '../federation/drawn-in-browser';
import { DrawnInBrowser, ServerFragmentContext, type ServerFragment } from '../federation/server-fragment';
import { composePage } from './compose-page';
import { type ComposedPage, fragmentFetcher, fragmentOf } from './fetch-fragment';
import { compressed, headersOfPage, ifNoneMatchNames, pageTag, requestOrigin } from './page-answer';
import { catalogScreenFor, isKnownPath } from './page-routes';
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
  const fetchFragment = fragmentFetcher({
    renderService: options.renderService,
    timeoutMs: fragmentTimeoutMs,
    log,
  });
  // A screen left to the browser is not a failure: React tells the browser so by this digest.
  const renderError = (error: unknown) => {
    if (error instanceof DrawnInBrowser) return DRAWN_IN_BROWSER_DIGEST;
    log({ msg: 'render error', error: error instanceof Error ? error.message : String(error) });
    return undefined;
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
