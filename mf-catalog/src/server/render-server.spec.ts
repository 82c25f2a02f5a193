import { PRODUCTS_API, SITE_SETTINGS_API } from '@shop/contracts';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { listen } from '@shop/ui/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { testProduct } from '../testing/products';

// The server build writes the version in (webpack's DefinePlugin); the module reads it when it loads.
vi.hoisted(() => {
  (globalThis as { __REMOTE_VERSION__?: string }).__REMOTE_VERSION__ = '7.7.7-test';
});

const { fragmentRequestOf, startRenderServer } = await import('./render-server');

/** A stand-in for the gateway: answers what `answer` says, and records what it was asked. */
async function fakeApi(answer: (req: IncomingMessage, res: ServerResponse) => void) {
  const asked: IncomingMessage[] = [];
  const server = await listen(
    async (req, res) => {
      asked.push(req);
      answer(req, res);
    },
    { port: 0, host: '127.0.0.1', failure: 'stand-in failed' },
  );
  return { ...server, asked };
}

const sendJson = (
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) => {
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
};

const query = (fields: Record<string, string>) => new URLSearchParams(fields);
const GOOD = {
  screen: 'ProductPage',
  route: '/product/:slug',
  url: '/product/ar-15',
  origin: 'https://shop.example.com',
};

describe('fragmentRequestOf', () => {
  it('takes a known screen at a path of the site, for an http(s) origin, at a tree position', () => {
    expect(fragmentRequestOf(query(GOOD))).toEqual({ ...GOOD, position: [] });
    expect(
      fragmentRequestOf(query({ ...GOOD, position: '5.2/3.0', origin: 'http://localhost:8000' })),
    ).toEqual({
      ...GOOD,
      origin: 'http://localhost:8000',
      position: [
        [5, 2],
        [3, 0],
      ],
    });
  });

  it('refuses what it cannot render, each with a message', () => {
    const refused = (fields: Record<string, string>) => fragmentRequestOf(query({ ...GOOD, ...fields }));
    expect(refused({ screen: 'CartPage' })).toBe('Unknown screen: CartPage');
    expect(refused({ screen: '' })).toBe('Unknown screen: (none)');
    expect(refused({ screen: 'toString' })).toBe('Unknown screen: toString');
    expect(refused({ screen: '__proto__' })).toBe('Unknown screen: __proto__');
    expect(refused({ route: 'product/:slug' })).toMatch(/^route must/);
    for (const url of ['//evil.example/x', 'http://x', 'product/x', ''])
      expect(refused({ url }), url).toBe('url must be a path on the site');
    for (const origin of [
      '',
      'javascript:alert(1)',
      'ftp://shop.example.com',
      'https://shop.example.com/',
      'https://shop.example.com/path',
      'https://',
      'https://shop.example.com?x',
    ])
      expect(refused({ origin }), origin).toBe('origin must be an http(s) origin');
    for (const position of ['5', '5.5', 'x'])
      expect(refused({ position }), position).toMatch(/^position must/);
  });
});

describe('startRenderServer', () => {
  const closing: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const close of closing.splice(0).reverse()) await close();
  });

  /** A render service reading from `apiUrl`, and the log entries it wrote. */
  async function renderService(apiUrl: string, readTimeoutMs?: number) {
    const logged: Record<string, unknown>[] = [];
    const server = await startRenderServer({
      apiUrl,
      port: 0,
      host: '127.0.0.1',
      readTimeoutMs,
      log: (entry) => logged.push(entry),
    });
    closing.push(server.close);
    return { server, logged };
  }

  const fragmentUrl = (base: string, fields: Record<string, string> = GOOD) =>
    `${base}/fragment?${query(fields)}`;

  it('answers its health checks with its version', async () => {
    const { server } = await renderService('http://127.0.0.1:9');
    expect(server.version).toBe('7.7.7-test');
    for (const path of ['/health/live', '/health/ready']) {
      const response = await fetch(`${server.url}${path}`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ status: 'ok', version: '7.7.7-test' });
    }
  });

  it('renders a screen from the API it was given, passing the trace on', async () => {
    const product = testProduct({ name: 'AR-15 Sport', slug: 'ar-15' });
    const api = await fakeApi((req, res) => {
      if (req.url === SITE_SETTINGS_API)
        return sendJson(res, 200, [{ _id: 's', siteName: 'Test Armory', currency: '$', logo: '' }]);
      if (req.url === `${PRODUCTS_API}/slug/ar-15`) return sendJson(res, 200, product);
      // This version's browser build, as published: the screen's stylesheets.
      if (req.url === '/remotes/catalog/7.7.7-test/mf-manifest.json')
        return sendJson(res, 200, {
          exposes: [
            { name: 'HomePage', assets: { css: { sync: ['home.css'], async: [] } } },
            { name: 'ProductPage', assets: { css: { sync: ['product.1a2b.css'], async: [] } } },
          ],
        });
      sendJson(res, 404, { message: 'Product Not Found' });
    });
    closing.push(api.close);
    const { server, logged } = await renderService(api.url);
    const traceparent = '00-0123456789abcdef0123456789abcdef-0123456789abcdef-01';
    const response = await fetch(fragmentUrl(server.url), { headers: { traceparent } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const fragment = (await response.json()) as Record<string, unknown>;
    expect(fragment).toMatchObject({ version: '7.7.7-test', status: 200 });
    expect(fragment['html']).toContain('AR-15 Sport');
    expect(fragment['head']).toContain(
      '<link rel="canonical" href="https://shop.example.com/product/ar-15"/>',
    );
    expect(Object.keys(fragment['answers'] as object).sort()).toEqual(
      [SITE_SETTINGS_API, `${PRODUCTS_API}/slug/ar-15`].sort(),
    );
    // The screen's stylesheet first in its head, by the URL the remote's chunk loader would ask for.
    expect(fragment['head']).toMatch(
      /^<link rel="stylesheet" href="https:\/\/shop\.example\.com\/remotes\/catalog\/7\.7\.7-test\/product\.1a2b\.css"\/>/,
    );
    const reads = api.asked.filter((req) => req.url?.startsWith('/api/'));
    expect(reads.map((req) => req.headers['traceparent'])).toEqual([traceparent, traceparent]);
    // The manifest is read once, not per render.
    expect((await fetch(fragmentUrl(server.url))).status).toBe(200);
    expect(api.asked.filter((req) => req.url?.endsWith('mf-manifest.json'))).toHaveLength(1);
    expect(logged).toContainEqual(
      expect.objectContaining({ msg: 'rendered', screen: 'ProductPage', status: 200 }),
    );
  });

  it('keeps no screen rendered while its stylesheets are unknown, and links them once the manifest is read', async () => {
    let published = false;
    const api = await fakeApi((req, res) => {
      if (req.url === SITE_SETTINGS_API) return sendJson(res, 200, []);
      if (req.url === `${PRODUCTS_API}/slug/ar-15`) return sendJson(res, 200, testProduct({ slug: 'ar-15' }));
      if (req.url === '/remotes/catalog/7.7.7-test/mf-manifest.json' && published)
        return sendJson(res, 200, {
          exposes: [{ name: 'ProductPage', assets: { css: { sync: ['product.css'], async: [] } } }],
        });
      sendJson(res, 404, { message: 'Not found' });
    });
    closing.push(api.close);
    const { server } = await renderService(api.url);
    server.cache.setEnabled(true);
    const fetchFragment = async () => {
      const response = await fetch(fragmentUrl(server.url));
      const { head } = (await response.json()) as { head: string };
      return { cache: response.headers.get('x-render-cache'), styled: head.includes('product.css') };
    };

    // The manifest cannot be read: the screen is answered without its stylesheets, and not kept.
    expect(await fetchFragment()).toEqual({ cache: 'miss', styled: false });
    expect(await fetchFragment()).toEqual({ cache: 'miss', styled: false });
    published = true;
    expect(await fetchFragment()).toEqual({ cache: 'miss', styled: true });
    expect(await fetchFragment()).toEqual({ cache: 'hit', styled: true });
  });

  it('answers 400 with a message for a request it cannot use, 405 for another method, 404 elsewhere', async () => {
    const { server } = await renderService('http://127.0.0.1:9');
    const bad = await fetch(fragmentUrl(server.url, { ...GOOD, url: '//evil.example' }));
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ message: 'url must be a path on the site' });
    const unknown = await fetch(fragmentUrl(server.url, { ...GOOD, screen: 'CartPage' }));
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toEqual({ message: 'Unknown screen: CartPage' });

    const post = await fetch(fragmentUrl(server.url), { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET');
    expect(await post.json()).toEqual({ message: 'Method not allowed' });

    expect((await fetch(`${server.url}/elsewhere`)).status).toBe(404);
  });

  it('answers 503 with a message when the API fails, and never renders the failure into the screen', async () => {
    const api = await fakeApi((_req, res) => sendJson(res, 500, { message: 'Internal error' }));
    closing.push(api.close);
    const { server, logged } = await renderService(api.url);
    const response = await fetch(fragmentUrl(server.url));
    expect(response.status).toBe(503);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toEqual({ message: `${SITE_SETTINGS_API} answered 500` });
    expect(logged).toContainEqual(expect.objectContaining({ msg: 'render failed', screen: 'ProductPage' }));
  });

  it('answers 503 when a read fails part way (the product read refused for load)', async () => {
    const api = await fakeApi((req, res) => {
      if (req.url === SITE_SETTINGS_API) return sendJson(res, 200, []);
      sendJson(res, 429, { message: 'API rate limit exceeded' });
    });
    closing.push(api.close);
    const { server } = await renderService(api.url);
    const response = await fetch(fragmentUrl(server.url));
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ message: `${PRODUCTS_API}/slug/ar-15 answered 429` });
  });

  it('answers 503 when the API cannot be reached or is too slow', async () => {
    const gone = await fakeApi(() => undefined);
    await gone.close();
    const unreachable = await renderService(gone.url);
    const refused = await fetch(fragmentUrl(unreachable.server.url));
    expect(refused.status).toBe(503);
    expect(((await refused.json()) as { message: string }).message).toMatch(/^\/api\/data\/all-data: /);

    const API_DELAY_MS = 2_000;
    const slow = await fakeApi((_req, res) => setTimeout(() => sendJson(res, 200, []), API_DELAY_MS).unref());
    closing.push(slow.close);
    const impatient = await renderService(slow.url, 100);
    const started = Date.now();
    const late = await fetch(fragmentUrl(impatient.server.url));
    expect(late.status).toBe(503);
    // It gave up on the API (after its 100 ms) rather than waiting for the answer.
    expect(Date.now() - started).toBeLessThan(API_DELAY_MS);
  });
});
