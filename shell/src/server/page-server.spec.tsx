import { formatTreePosition } from '@shop/ui';
import type { IncomingMessage } from 'node:http';
import { listen } from '@shop/ui/server';
import { describe, expect, it, vi } from 'vitest';
import { SCREEN_TREE_POSITION } from '../features/layout/layout';

// The page server's build takes each module's `.server.tsx` variant first (tools/webpack-preset): the remote's
// place holds the render service's fragment instead of loading the remote's code, and the footer is drawn.
vi.mock('../federation/remote-route', () => import('../federation/remote-route.server'));
vi.mock('../features/layout/footer-slot', () => import('../features/layout/footer-slot.server'));

const { requestOrigin } = await import('./page-answer');
const { START_HASH, TEMPLATE, closing, fragmentOf, pageData, pageServer, renderService, rootOf } =
  await import('./page-server.harness');

const request = (headers: Record<string, string | string[]>) => ({ headers }) as IncomingMessage;

describe('requestOrigin', () => {
  it('prefers the configured origin, without a trailing slash', () => {
    expect(
      requestOrigin(
        request({ host: 'internal:4100', 'x-forwarded-host': 'x.example' }),
        'https://shop.example.com/',
      ),
    ).toBe('https://shop.example.com');
  });

  it("takes the proxy's forwarded host and protocol, and the port Kong sends apart", () => {
    expect(
      requestOrigin(
        request({
          host: 'shell-pages:4100',
          'x-forwarded-proto': 'https',
          'x-forwarded-host': 'shop.example.com',
          'x-forwarded-port': '8443',
        }),
      ),
    ).toBe('https://shop.example.com:8443');
    expect(
      requestOrigin(
        request({ 'x-forwarded-host': 'localhost', 'x-forwarded-port': '8000', host: 'shell:4000' }),
      ),
    ).toBe('http://localhost:8000');
    // A forwarded host that names its port keeps it, once.
    expect(requestOrigin(request({ 'x-forwarded-host': 'localhost:8000', 'x-forwarded-port': '8000' }))).toBe(
      'http://localhost:8000',
    );
    // The first of a list of proxies.
    expect(
      requestOrigin(
        request({ 'x-forwarded-host': 'shop.example.com, inner.example', 'x-forwarded-proto': 'https,http' }),
      ),
    ).toBe('https://shop.example.com');
  });

  it("leaves out the protocol's default port", () => {
    expect(
      requestOrigin(
        request({
          'x-forwarded-proto': 'https',
          'x-forwarded-host': 'shop.example.com',
          'x-forwarded-port': '443',
        }),
      ),
    ).toBe('https://shop.example.com');
    expect(requestOrigin(request({ 'x-forwarded-host': 'shop.example.com', 'x-forwarded-port': '80' }))).toBe(
      'http://shop.example.com',
    );
  });

  it('falls back to the Host, and refuses a host with odd characters', () => {
    expect(requestOrigin(request({ host: 'localhost:4000' }))).toBe('http://localhost:4000');
    expect(requestOrigin(request({}))).toBe('http://localhost');
    expect(requestOrigin(request({ host: 'evil.example/"><script>' }))).toBe('http://localhost');
    expect(requestOrigin(request({ 'x-forwarded-host': 'evil.example@x', host: 'ok.example' }))).toBe(
      'http://localhost',
    );
    // Only https is taken from the proxy; anything else is http.
    expect(requestOrigin(request({ 'x-forwarded-proto': 'javascript', host: 'ok.example' }))).toBe(
      'http://ok.example',
    );
  });
});

describe('startPageServer', () => {
  it("answers a catalogue page with the render service's fragment in #root, its head, data and policy", async () => {
    const service = await renderService(() => ({ body: fragmentOf() }));
    closing.push(service.close);
    const { server } = await pageServer(service.url, { publicOrigin: 'https://shop.example.com' });

    const response = await fetch(`${server.url}/product/ar-15?ref=mail`, {
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('content-encoding')).toBe('gzip');
    const policy = response.headers.get('content-security-policy') ?? '';
    expect(policy).toContain(`script-src 'self' ${START_HASH}`);
    expect(response.headers.get('x-robots-tag')).toBeNull();
    const html = await response.text();

    // In the layout's main landmark, where the screen's place is.
    expect(rootOf(html)).toMatch(/<main id="main"[^>]*><!--\$--><!--\$--><article data-fragment="yes">/);
    expect(rootOf(html)).toContain(fragmentOf()['html']);
    expect(html).not.toContain('drawn-in-browser');
    // The footer is drawn with the page, in a boundary of its own: the browser takes it over once near it.
    expect(rootOf(html)).toMatch(
      /<!--\$--><footer[^>]*>[\s\S]*<a href="\/legal"[^>]*>Terms and Condition<\/a>[\s\S]*<\/footer><!--\/\$-->/,
    );
    // It names the version that drew the screen: the browser takes the HTML over with that version's code.
    expect(html).toMatch(/^<!doctype html><html data-rendered="catalog@1.0.0" lang=en>/);
    expect(html.match(/<title>/g)).toHaveLength(1);
    expect(html).toContain('<title>Product Page AR-15</title>');
    expect(html).not.toContain('content="x"');
    expect(html).not.toContain('<noscript>');
    expect(html).toContain('<script>start()</script>');
    // The product's name cannot end the data block and start a script of its own.
    expect(html).not.toContain('<script>alert(1)');
    expect(pageData(html)).toEqual({
      answers: fragmentOf()['answers'],
      origin: 'https://shop.example.com',
      remotes: { catalog: '1.0.0' },
    });

    expect(service.asked).toHaveLength(1);
    const asked = Object.fromEntries(service.asked[0]!.searchParams);
    expect(service.asked[0]!.pathname).toBe('/fragment');
    expect(asked).toEqual({
      screen: 'ProductPage',
      route: '/product/:slug',
      url: '/product/ar-15?ref=mail',
      origin: 'https://shop.example.com',
      position: formatTreePosition(SCREEN_TREE_POSITION),
    });
  });

  it("passes the fragment's status on (404 for an unknown product), and asks with the request's origin", async () => {
    const service = await renderService(() => ({
      body: fragmentOf({
        status: 404,
        html: '<p>Product Not Found</p>',
        head: '<title>Product Page Product Not Found</title>',
      }),
    }));
    closing.push(service.close);
    const { server } = await pageServer(service.url);
    const response = await fetch(`${server.url}/product/gone`, {
      headers: { 'x-forwarded-host': 'localhost', 'x-forwarded-port': '8000' },
    });
    expect(response.status).toBe(404);
    expect(rootOf(await response.text())).toContain('<p>Product Not Found</p>');
    expect(service.asked[0]!.searchParams.get('origin')).toBe('http://localhost:8000');
  });

  it('reuses the page it composed while the render service answers that the fragment is unchanged (304)', async () => {
    let fragment = fragmentOf();
    let tag = '"one"';
    const asked: Array<string | undefined> = [];
    const service = await listen(
      async (req, res) => {
        const ifNoneMatch = req.headers['if-none-match'];
        asked.push(ifNoneMatch);
        const headers = { ETag: tag, 'X-Render-Cache': 'hit' };
        if (ifNoneMatch === tag) {
          res.writeHead(304, headers);
          res.end();
          return;
        }
        res.writeHead(200, { ...headers, 'Content-Type': 'application/json' });
        res.end(JSON.stringify(fragment));
      },
      { port: 0, host: '127.0.0.1', failure: 'stand-in failed' },
    );
    closing.push(service.close);
    let template = TEMPLATE;
    const { server } = await pageServer(service.url, { template: async () => template });
    const page = async (encoding = 'identity') => {
      const response = await fetch(`${server.url}/product/ar-15`, {
        headers: { 'accept-encoding': encoding },
      });
      return { response, html: await response.text() };
    };

    const first = await page();
    expect(asked).toEqual([undefined]);
    expect(first.response.headers.get('x-render-cache')).toBe('hit');
    const again = await page('br');
    expect(asked).toEqual([undefined, '"one"']);
    expect(again.response.status).toBe(200);
    expect(again.response.headers.get('content-encoding')).toBe('br');
    expect(again.html).toBe(first.html);
    // The reused page keeps its validator for browsers.
    expect(again.response.headers.get('etag')).toBe(first.response.headers.get('etag'));
    const revalidated = await fetch(`${server.url}/product/ar-15`, {
      headers: { 'if-none-match': first.response.headers.get('etag')! },
    });
    expect(revalidated.status).toBe(304);

    // A new fragment (another tag) makes a new page.
    fragment = fragmentOf({ html: '<article>Changed price</article>' });
    tag = '"two"';
    const changed = await page();
    expect(asked.at(-1)).toBe('"one"');
    expect(rootOf(changed.html)).toContain('Changed price');
    expect((await page()).html).toBe(changed.html);
    expect(asked.at(-1)).toBe('"two"');

    // Another shell build (template): the page is composed afresh, not reused.
    template = TEMPLATE.replace('Firearms Store', 'Firearms Store 2');
    await page();
    expect(asked.at(-1)).toBeUndefined();
  });

  it('answers a browser that has the page 304, in any encoding, and the page again once it changed', async () => {
    let fragment = fragmentOf();
    const service = await renderService(() => ({ body: fragment }));
    closing.push(service.close);
    const { server } = await pageServer(service.url);
    const get = (path: string, headers: Record<string, string> = {}) =>
      fetch(`${server.url}${path}`, { headers });

    const first = await get('/product/ar-15', { 'accept-encoding': 'br' });
    const tag = first.headers.get('etag')!;
    expect(tag).toMatch(/^W\/"[\w-]{27}"$/);
    expect(first.headers.get('cache-control')).toBe('no-cache');
    await first.text();
    const again = await get('/product/ar-15', { 'if-none-match': tag, 'accept-encoding': 'gzip' });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(tag);
    expect(await again.text()).toBe('');
    // The browser takes a 304's headers over the stored page's: the page's policy must come with it.
    expect(again.headers.get('content-security-policy')).toBe(first.headers.get('content-security-policy'));
    expect(again.headers.get('content-security-policy')).toContain(START_HASH);
    // One of a list, or the same tag without W/ (browsers compare weakly).
    expect((await get('/product/ar-15', { 'if-none-match': `"other", ${tag.slice(2)}` })).status).toBe(304);

    fragment = fragmentOf({ html: '<article>Changed price</article>' });
    const changed = await get('/product/ar-15', { 'if-none-match': tag });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(tag);
    expect(await changed.text()).toContain('Changed price');

    // A page drawn in the browser has one too; a 404 is always sent whole.
    const cart = await get('/cart');
    const cartAgain = await get('/cart', { 'if-none-match': cart.headers.get('etag')! });
    expect(cartAgain.status).toBe(304);
    expect(cartAgain.headers.get('x-robots-tag')).toBe('noindex');
    expect(cartAgain.headers.get('content-security-policy')).toContain(START_HASH);
    const unknown = await get('/nope');
    expect((await get('/nope', { 'if-none-match': unknown.headers.get('etag')! })).status).toBe(404);
  });

  it('keeps no composed page past its byte bound: the next request asks for the whole fragment', async () => {
    const asked: Array<string | undefined> = [];
    const service = await listen(
      async (req, res) => {
        asked.push(req.headers['if-none-match']);
        res.writeHead(200, { ETag: '"one"', 'Content-Type': 'application/json' });
        res.end(JSON.stringify(fragmentOf()));
      },
      { port: 0, host: '127.0.0.1', failure: 'stand-in failed' },
    );
    closing.push(service.close);
    const { server } = await pageServer(service.url, { composedPagesBytes: 100 });
    for (let i = 0; i < 2; i += 1) expect((await fetch(`${server.url}/product/ar-15`)).status).toBe(200);
    expect(asked).toEqual([undefined, undefined]);
  });

  it('leaves the screen to the browser when the fragment is of another version than remotes.json names', async () => {
    const service = await renderService(() => ({ body: fragmentOf({ version: '0.9.0' }) }));
    closing.push(service.close);
    const { server, logged } = await pageServer(service.url);
    const response = await fetch(`${server.url}/product/ar-15`);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).not.toContain('from the render service');
    // The layout is there, and the screen's place tells React to draw it in the browser.
    expect(rootOf(html)).toContain('<main id="main"');
    expect(rootOf(html)).toContain('data-dgst="drawn-in-browser"');
    expect(pageData(html)).toMatchObject({ answers: {}, remotes: {} });
    expect(html).toContain('<title>Firearms Store</title>');
    expect(logged).toContainEqual(
      expect.objectContaining({ msg: 'fragment of another version', rendered: '0.9.0', named: '1.0.0' }),
    );
  });

  it('leaves the screen to the browser when the render service is down, fails, or answers no fragment', async () => {
    const gone = await renderService(() => ({ body: {} }));
    await gone.close();
    const failing = await renderService(() => ({ status: 503, body: { message: 'busy' } }));
    closing.push(failing.close);
    const shapeless = await renderService(() => ({ body: { html: '<p>half</p>' } }));
    closing.push(shapeless.close);
    for (const service of [gone.url, failing.url, shapeless.url, undefined]) {
      const { server } = await pageServer(service);
      const response = await fetch(`${server.url}/product/ar-15`);
      expect(response.status, service).toBe(200);
      const html = await response.text();
      expect(rootOf(html), service).toContain('data-dgst="drawn-in-browser"');
      expect(html).not.toContain('half');
      expect(pageData(html)).toMatchObject({ answers: {}, remotes: {} });
      expect(response.headers.get('content-security-policy')).toContain(START_HASH);
    }
  });

  it('answers the plain page, not indexed, for pages drawn in the browser, and 404 for unknown paths', async () => {
    const service = await renderService(() => ({ body: fragmentOf() }));
    closing.push(service.close);
    const { server } = await pageServer(service.url);

    const cart = await fetch(`${server.url}/cart`);
    expect(cart.status).toBe(200);
    expect(cart.headers.get('x-robots-tag')).toBe('noindex');
    expect(cart.headers.get('content-security-policy')).toContain(START_HASH);
    expect(await cart.text()).toBe(TEMPLATE);

    const unknown = await fetch(`${server.url}/nope`);
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('x-robots-tag')).toBe('noindex');
    expect(await unknown.text()).toBe(TEMPLATE);

    expect(service.asked).toEqual([]);
  });

  it('answers its health checks, and refuses other methods than GET and HEAD', async () => {
    const { server } = await pageServer(undefined);
    const live = await fetch(`${server.url}/health/live`);
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ status: 'ok' });
    const post = await fetch(`${server.url}/`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    const head = await fetch(`${server.url}/cart`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });
});
