// The catalog team's render service (docs/decisions/0020): renders this remote's screens on the server for
// the shell's page server, one version per process. Started by `node dist-server/render-server.js`, or
// in process by the local stack (startRenderServer).
import { serverAnswerOf } from '@shop/state/server';
import { parseTreePosition } from '@shop/ui';
import { listen, type RunningServer } from '@shop/ui/server';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  FragmentUnavailable,
  renderFragment,
  type FragmentRequest,
  type ReadAnswer,
} from './render-fragment';
import { RenderCache, UnkeptFragment, type RenderCacheOptions } from './render-cache';
import { followCatalogChanges } from './render-invalidation';
import { SERVER_SCREENS } from './screens';
import { manifestReader, stylesheetLinks, stylesheetsOf } from './screen-stylesheets';

declare const __REMOTE_VERSION__: string;

/** This build's version, written by the server build (the browser build's version, from package.json). */
export const RENDER_VERSION: string = __REMOTE_VERSION__;

export interface RenderServerOptions {
  /** Where the services answer reads: the gateway (`http://gateway:8000`). */
  apiUrl: string;
  port?: number;
  host?: string;
  /** The longest one read may take; a slower service makes the page draw this part in the browser. */
  readTimeoutMs?: number;
  /**
   * NATS, where the catalogue's changes are announced: with it, rendered screens are kept until a change
   * drops them (render-cache.ts); without it, every request renders.
   */
  natsUrl?: string;
  cache?: Omit<RenderCacheOptions, 'now'>;
  log?: (entry: Record<string, unknown>) => void;
}

export interface RenderServer extends RunningServer {
  version: string;
  cache: RenderCache;
}

const JSON_TYPE = 'application/json; charset=utf-8';

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': JSON_TYPE, 'Cache-Control': 'no-store' });
  res.end(JSON.stringify(body));
}

/** Reads through the gateway, each bounded in time; a failure a retry may fix makes the render unavailable. */
function readerFor(apiUrl: string, timeoutMs: number, traceparent: string | undefined): ReadAnswer {
  return async (path) => {
    let response: Response;
    try {
      response = await fetch(new URL(path, apiUrl), {
        headers: { Accept: 'application/json', ...(traceparent ? { traceparent } : {}) },
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      throw new FragmentUnavailable(`${path}: ${error instanceof Error ? error.message : String(error)}`);
    }
    const answer = await serverAnswerOf(response);
    if (!answer) throw new FragmentUnavailable(`${path} answered ${response.status}`);
    return answer;
  };
}

/** `GET /fragment?screen=&route=&url=&origin=`: the request, checked; a message when it is not usable. */
export function fragmentRequestOf(search: URLSearchParams): FragmentRequest | string {
  const screen = search.get('screen') ?? '';
  const route = search.get('route') ?? '';
  const url = search.get('url') ?? '';
  const origin = search.get('origin') ?? '';
  const position = parseTreePosition(search.get('position') ?? '');
  if (!Object.hasOwn(SERVER_SCREENS, screen)) return `Unknown screen: ${screen || '(none)'}`;
  if (!route.startsWith('/')) return 'route must be a path pattern starting with /';
  if (!url.startsWith('/') || url.startsWith('//')) return 'url must be a path on the site';
  if (!/^https?:\/\/[^/?#]+$/.test(origin)) return 'origin must be an http(s) origin';
  if (!position) return 'position must be like 5.2/3.0 (children.index per level)';
  return { screen, route, url, origin, position };
}

export async function startRenderServer(options: RenderServerOptions): Promise<RenderServer> {
  const { apiUrl, port = 0, host = '0.0.0.0', readTimeoutMs = 2_000 } = options;
  const log = options.log ?? ((entry) => process.stdout.write(`${JSON.stringify(entry)}\n`));
  const cache = new RenderCache(options.cache);
  const readManifest = manifestReader(apiUrl, RENDER_VERSION, readTimeoutMs);
  const invalidation = options.natsUrl ? followCatalogChanges(cache, options.natsUrl, log) : undefined;

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://render');
    if (url.pathname === '/health/live' || url.pathname === '/health/ready') {
      send(res, 200, { status: 'ok', version: RENDER_VERSION });
      return;
    }
    if (req.method !== 'GET') {
      res.setHeader('Allow', 'GET');
      send(res, 405, { message: 'Method not allowed' });
      return;
    }
    if (url.pathname !== '/fragment') {
      send(res, 404, { message: 'Not found' });
      return;
    }
    const request = fragmentRequestOf(url.searchParams);
    if (typeof request === 'string') {
      send(res, 400, { message: request });
      return;
    }
    const traceparent = req.headers['traceparent'];
    const render = async () => {
      const started = performance.now();
      const fragment = await renderFragment(
        request,
        readerFor(apiUrl, readTimeoutMs, typeof traceparent === 'string' ? traceparent : undefined),
        RENDER_VERSION,
      );
      // The screen's stylesheets first in its head: the page paints styled before any script runs.
      const manifest = await readManifest();
      const styles = stylesheetsOf(manifest, request.screen);
      log({
        msg: 'rendered',
        screen: request.screen,
        url: request.url,
        status: fragment.status,
        ms: Math.round(performance.now() - started),
      });
      const styled = {
        ...fragment,
        head: `${stylesheetLinks(styles, request.origin, RENDER_VERSION)}${fragment.head}`,
      };
      // Without the manifest the page paints unstyled until its code runs: answered, not kept, so the next
      // request (which reads the manifest again) renders it with its stylesheets.
      return manifest === undefined ? new UnkeptFragment(styled) : styled;
    };
    try {
      const { rendered, status } = await cache.fragment(JSON.stringify(request), render);
      const headers = {
        'Cache-Control': 'no-store',
        ETag: rendered.etag,
        'X-Render-Cache': status,
      };
      // The page server asks again with the fragment it composed last: unchanged, it reuses its page.
      if (req.headers['if-none-match'] === rendered.etag) {
        res.writeHead(304, headers);
        res.end();
        return;
      }
      res.writeHead(200, { ...headers, 'Content-Type': JSON_TYPE });
      res.end(rendered.body);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      log({ msg: 'render failed', screen: request.screen, url: request.url, error: message });
      send(res, 503, {
        message: error instanceof FragmentUnavailable ? message : 'The screen could not be rendered',
      });
    }
  };

  const server = await listen(handle, { port, host, failure: 'The screen could not be rendered' });
  return {
    ...server,
    version: RENDER_VERSION,
    cache,
    close: async () => {
      await invalidation?.close();
      await server.close();
    },
  };
}
