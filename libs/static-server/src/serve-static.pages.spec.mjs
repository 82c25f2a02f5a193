import { createServer } from 'node:http';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveStatic } from './serve-static.mjs';

/** A stand-in page server: answers what `answer` says for each request, and records what it was asked. */
async function pageServer(answer) {
  const asked = [];
  const server = createServer((req, res) => {
    asked.push({ url: req.url, headers: req.headers });
    answer(req, res);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    asked,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

describe('serveStatic with a page server', () => {
  let dir;
  const PAGE =
    '<!doctype html><html><head><title>Plain</title></head><body><div id=root></div></body></html>';

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pages-'));
    await writeFile(join(dir, 'index.html'), PAGE);
    await writeFile(join(dir, 'main.js'), 'console.log(1)');
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const get = (url, path, headers = {}) =>
    fetch(`${url}${path}`, { headers: { accept: 'text/html', ...headers } });

  it("answers pages, / included, with the page server's page, its status, headers and encoding as they are", async () => {
    const rendered = '<!doctype html><html data-rendered><body><h1>Rendered</h1></body></html>';
    const pages = await pageServer((req, res) => {
      res.writeHead(req.url.startsWith('/product/nope') ? 404 : 200, {
        'content-type': 'text/html; charset=utf-8',
        'content-encoding': 'gzip',
        'content-security-policy': "script-src 'self'",
        'x-robots-tag': 'noindex',
      });
      res.end(gzipSync(rendered));
    });
    const server = await serveStatic({ dir, spa: true, pages: pages.url, port: 0, host: '127.0.0.1' });
    try {
      for (const path of ['/', '/product/x?sort=new']) {
        const response = await get(server.url, path, {
          'accept-encoding': 'gzip',
          'x-forwarded-port': '8000',
        });
        expect(response.status, path).toBe(200);
        expect(await response.text(), path).toBe(rendered);
        expect(response.headers.get('content-security-policy')).toBe("script-src 'self'");
        expect(response.headers.get('x-robots-tag')).toBe('noindex');
      }
      expect((await get(server.url, '/product/nope')).status).toBe(404);
      expect(pages.asked.map((request) => request.url)).toEqual([
        '/',
        '/product/x?sort=new',
        '/product/nope',
      ]);
      expect(pages.asked[0].headers['x-forwarded-port']).toBe('8000');
      // Files are the static server's own.
      expect(await (await fetch(`${server.url}/main.js`)).text()).toBe('console.log(1)');
      expect(pages.asked).toHaveLength(3);
    } finally {
      await server.close();
      await pages.close();
    }
  });

  it("passes the browser's If-None-Match to the page server and its 304 back, with the page's ETag", async () => {
    const tag = 'W/"page-1"';
    const pages = await pageServer((req, res) => {
      const headers = {
        etag: tag,
        'cache-control': 'no-cache',
        vary: 'Accept-Encoding',
        'content-security-policy': "script-src 'self' 'sha256-start'",
      };
      if (req.headers['if-none-match'] === tag) {
        res.writeHead(304, headers);
        res.end();
        return;
      }
      res.writeHead(200, { ...headers, 'content-type': 'text/html; charset=utf-8' });
      res.end('<p>rendered</p>');
    });
    const server = await serveStatic({ dir, spa: true, pages: pages.url, port: 0, host: '127.0.0.1' });
    try {
      const first = await get(server.url, '/product/x');
      expect(first.status).toBe(200);
      expect(first.headers.get('etag')).toBe(tag);
      expect(await first.text()).toBe('<p>rendered</p>');
      const again = await get(server.url, '/product/x', { 'if-none-match': tag });
      expect(again.status).toBe(304);
      expect(again.headers.get('etag')).toBe(tag);
      expect(again.headers.get('cache-control')).toBe('no-cache');
      // A browser takes the 304's headers over its stored page's: the page's own policy comes with it.
      expect(again.headers.get('content-security-policy')).toBe("script-src 'self' 'sha256-start'");
      expect(await again.text()).toBe('');
      expect(pages.asked.map((request) => request.headers['if-none-match'])).toEqual([undefined, tag]);
    } finally {
      await server.close();
      await pages.close();
    }
  });

  it("asks the page server for pages only, with the shopper's origin but never their cookies or token", async () => {
    const pages = await pageServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'set-cookie': 'page=1' });
      res.end('<p>rendered</p>');
    });
    const server = await serveStatic({ dir, spa: true, pages: pages.url, port: 0, host: '127.0.0.1' });
    try {
      const page = await get(server.url, '/category/Rifles', {
        cookie: 'session=secret',
        authorization: 'Bearer secret',
        'x-forwarded-proto': 'https',
        traceparent: '00-0123456789abcdef0123456789abcdef-0123456789abcdef-01',
      });
      expect(await page.text()).toBe('<p>rendered</p>');
      expect(page.headers.get('set-cookie')).toBeNull();
      const [asked] = pages.asked;
      expect(asked.headers.cookie).toBeUndefined();
      expect(asked.headers.authorization).toBeUndefined();
      // Without a proxy in front, the Host the shopper used is the forwarded host.
      expect(asked.headers['x-forwarded-host']).toBe(new URL(server.url).host);
      expect(asked.headers['x-forwarded-proto']).toBe('https');
      expect(asked.headers.traceparent).toBe('00-0123456789abcdef0123456789abcdef-0123456789abcdef-01');

      // A read of JSON and a file are not pages.
      const json = await fetch(`${server.url}/`, { headers: { accept: 'application/json' } });
      expect(await json.text()).toBe(PAGE);
      expect((await fetch(`${server.url}/main.js`, { headers: { accept: 'text/html' } })).status).toBe(200);
      expect(pages.asked).toHaveLength(1);
    } finally {
      await server.close();
      await pages.close();
    }
  });

  it('passes a streamed page on as it arrives: its layout before the page server has sent its slow part', async () => {
    const events = [];
    let sendRest;
    const restAsked = new Promise((resolve) => (sendRest = resolve));
    const pages = await pageServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'x-accel-buffering': 'no' });
      res.write('<!doctype html><html><body><header>Layout</header>');
      // The rest once the browser has the first part, or after a second whatever happens.
      const timer = setTimeout(sendRest, 1_000);
      void restAsked.then(() => {
        clearTimeout(timer);
        events.push('page server sent the slow part');
        res.end('<main>Slow part</main></body></html>');
      });
    });
    const server = await serveStatic({ dir, spa: true, pages: pages.url, port: 0, host: '127.0.0.1' });
    try {
      const response = await get(server.url, '/product/x');
      expect(response.headers.get('x-accel-buffering')).toBe('no');
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      const first = decoder.decode((await reader.read()).value);
      events.push('browser read the first part');
      expect(first).toContain('<header>Layout</header>');
      sendRest();
      let rest = '';
      for (let part = await reader.read(); !part.done; part = await reader.read())
        rest += decoder.decode(part.value);
      expect(`${first}${rest}`).toContain('<main>Slow part</main>');
      expect(events).toEqual(['browser read the first part', 'page server sent the slow part']);
    } finally {
      await server.close();
      await pages.close();
    }
  });

  it('answers the plain page when the page server fails or is not there', async () => {
    const failing = await pageServer((_req, res) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end('{"message":"boom"}');
    });
    const server = await serveStatic({ dir, spa: true, pages: failing.url, port: 0, host: '127.0.0.1' });
    try {
      const response = await get(server.url, '/product/x');
      expect(response.status).toBe(200);
      expect(await response.text()).toBe(PAGE);
      await failing.close();
      const gone = await get(server.url, '/');
      expect(gone.status).toBe(200);
      expect(await gone.text()).toBe(PAGE);
    } finally {
      await server.close();
    }
  });
});
