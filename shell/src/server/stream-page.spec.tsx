import { SITE_SETTINGS_API } from '@shop/contracts';
import { get } from 'node:http';
import { JSDOM, VirtualConsole } from 'jsdom';
import { listen } from '@shop/ui/server';
import { describe, expect, it, vi } from 'vitest';

// The page server's build takes each module's `.server.tsx` variant first (tools/webpack-preset): the remote's
// place holds the render service's fragment instead of loading the remote's code, and the footer is drawn.
vi.mock('../federation/remote-route', () => import('../federation/remote-route.server'));
vi.mock('../features/layout/footer-slot', () => import('../features/layout/footer-slot.server'));

const { markerReplacer } = await import('./stream-page');
const { PRODUCT_ANSWER, START_HASH, closing, fragmentOf, pageData, pageServer } =
  await import('./page-server.harness');

const SETTINGS_ANSWER = {
  status: 200,
  ok: true,
  data: [{ siteName: 'Streamed Arms', currency: 'USD' }],
  headers: {},
} as const;
const ANSWERS = { '/api/products/slug/ar-15': PRODUCT_ANSWER, [SITE_SETTINGS_API]: SETTINGS_ANSWER };

describe('markerReplacer', () => {
  it('replaces the marker once wherever the chunks split it, and holds back nothing else', () => {
    const marker = 'shop-fragment-0123';
    const text = `<div hidden id="S:0">${marker}</div><p>shop-fragment is a word here</p>`;
    const replaced = text.replace(marker, '<article>AR-15</article>');
    for (let cut = 0; cut <= text.length; cut += 1) {
      for (const second of [cut, Math.min(text.length, cut + 5)]) {
        const written: string[] = [];
        const replacer = markerReplacer(
          marker,
          () => '<article>AR-15</article>',
          (html) => written.push(html),
        );
        for (const chunk of [text.slice(0, cut), text.slice(cut, second), text.slice(second)])
          replacer.write(chunk);
        replacer.end();
        expect(written.join(''), `cut at ${cut} and ${second}`).toBe(replaced);
      }
    }
    // Text that cannot begin the marker is passed on at once.
    const passed: string[] = [];
    markerReplacer(
      marker,
      () => 'x',
      (html) => passed.push(html),
    ).write('<main>layout</main>');
    expect(passed).toEqual(['<main>layout</main>']);
  });
});

/** A render service whose first answer comes at once and every later one once `release()` is called. */
async function slowAfterFirstService() {
  const events: string[] = [];
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let asked = 0;
  const service = await listen(
    async (req, res) => {
      asked += 1;
      if (asked > 1) await released;
      events.push(`render service answered ${asked}`);
      res.writeHead(200, { 'Content-Type': 'application/json', ETag: `"${asked}"` });
      res.end(JSON.stringify(fragmentOf({ answers: ANSWERS })));
    },
    { port: 0, host: '127.0.0.1', failure: 'stand-in failed' },
  );
  closing.push(service.close);
  return { service, events, release };
}

/** GETs `url` as it arrives: its status, headers, the chunks so far, and the whole body once it ends. */
function streamedGet(url: string, events: string[]) {
  const chunks: string[] = [];
  let headers: Record<string, string | string[] | undefined> = {};
  let status = 0;
  const body = new Promise<string>((resolve, reject) => {
    get(url, { headers: { 'accept-encoding': 'identity' } }, (response) => {
      status = response.statusCode ?? 0;
      headers = response.headers;
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        if (chunks.length === 0) events.push('first part of the page arrived');
        chunks.push(chunk);
      });
      response.on('end', () => resolve(chunks.join('')));
    }).on('error', reject);
  });
  return { chunks, body, status: () => status, headers: () => headers };
}

/** The page as a browser builds it: its inline scripts run (the start script's `start` is not defined here). */
async function browserDocument(html: string) {
  const dom = new JSDOM(html, {
    runScripts: 'dangerously',
    pretendToBeVisual: true,
    virtualConsole: new VirtualConsole(),
  });
  await vi.waitFor(() => expect(dom.window.document.querySelector('main [data-fragment]')).not.toBeNull());
  return dom.window.document;
}

describe('a catalogue page whose render is slower than its layout', () => {
  it('sends the layout first and the screen into its place when the render comes, under the page’s nonce', async () => {
    const { service, events, release } = await slowAfterFirstService();
    const { server } = await pageServer(service.url, { streamAfterMs: 50 });
    // The first page is whole (the page server has no site settings to draw a layout with before it).
    const first = await fetch(`${server.url}/product/ar-15`);
    expect(first.headers.get('x-render-cache')).toBeNull();
    await first.text();

    const page = streamedGet(`${server.url}/product/ar-15?from=mail`, events);
    await vi.waitFor(() =>
      expect(page.chunks.length, 'parts of the page sent before the render service answered').toBeGreaterThan(
        0,
      ),
    );
    const layout = page.chunks.join('');
    expect(layout).toContain('<div id="root">');
    expect(layout).toContain('Streamed Arms');
    expect(layout).not.toContain('data-fragment');
    release();
    const html = await page.body;
    // The layout went before the render service answered: the order of events, not a time.
    expect(events).toEqual([
      'render service answered 1',
      'first part of the page arrived',
      'render service answered 2',
    ]);

    expect(page.status()).toBe(200);
    expect(page.headers()['x-render-cache']).toBe('streamed');
    expect(page.headers()['x-accel-buffering']).toBe('no');
    const nonce = /'nonce-([^']+)'/.exec(String(page.headers()['content-security-policy']))?.[1];
    expect(String(page.headers()['content-security-policy'])).toContain(START_HASH);
    expect(nonce, 'a nonce in the page policy').toBeDefined();
    // Every inline script but the template's start script carries the answer's nonce.
    const inline = [...html.matchAll(/<script(?![^>]*type="application\/json")([^>]*)>(?!start\(\))/g)];
    expect(inline.length).toBeGreaterThan(1);
    for (const [, attributes] of inline) expect(attributes).toContain(`nonce="${nonce}"`);
    expect(html).toMatch(/^<!doctype html><html data-rendered="catalog@1.0.0" lang=en>/);
    expect(pageData(html)).toEqual({
      answers: ANSWERS,
      origin: expect.any(String),
      remotes: { catalog: '1.0.0' },
    });

    // Once its scripts have run, the page is the one composed whole: the screen in the layout's main
    // landmark, its title and description in the head.
    const document = await browserDocument(html);
    expect(document.querySelector('main [data-fragment]')?.textContent).toBe('AR-15 from the render service');
    expect(document.title).toBe('Product Page AR-15');
    expect(
      [...document.querySelectorAll('meta[name="description"]')].map((meta) => meta.getAttribute('content')),
    ).toEqual(['A rifle.']);
    expect(document.querySelector('#shop-late-head')).toBeNull();
  });

  it('leaves the screen’s place to the browser when the render does not come in time', async () => {
    const { service, events, release } = await slowAfterFirstService();
    closing.push(async () => release());
    const { server, logged } = await pageServer(service.url, { streamAfterMs: 50 });
    await (await fetch(`${server.url}/product/ar-15`)).text();

    const html = await streamedGet(`${server.url}/product/ar-15?late`, events).body;
    expect(html).toContain('Streamed Arms');
    expect(html).toContain('drawn-in-browser');
    expect(html).not.toContain('data-fragment');
    expect(pageData(html)).toMatchObject({ answers: { [SITE_SETTINGS_API]: SETTINGS_ANSWER }, remotes: {} });
    expect(logged).toContainEqual(expect.objectContaining({ msg: 'fragment unavailable' }));
  });
});
