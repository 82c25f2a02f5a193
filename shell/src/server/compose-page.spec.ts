import { describe, expect, it } from 'vitest';
import { catalogScreenFor, isKnownPath } from './page-routes';
import { splitHead } from '@shop/ui/server';
import { composePage } from './compose-page';

// The built page is minified (html-webpack-plugin): attribute quotes dropped where it can.
const TEMPLATE =
  '<!doctype html><html lang=en><head><meta charset=utf-8><meta name=description content="High-quality firearms.">' +
  '<title>Firearms Store</title><script>start()</script></head><body><noscript>This shop needs JavaScript.</noscript>' +
  '<div id=root></div></body></html>';

const data = { answers: {}, origin: 'https://shop.example.com', remotes: { catalog: '1.0.0' } };

describe('the page the page server sends', () => {
  it("takes the screen's title and description in place of the page's, and its body into #root", () => {
    const page = composePage(TEMPLATE, {
      head: '<title>Product Page AR-15</title><meta name="description" content="A rifle."/>',
      body: '<main>AR-15</main>',
      data,
    });
    expect(page.match(/<title>/g)).toHaveLength(1);
    expect(page).toContain('<title>Product Page AR-15</title>');
    expect(page).not.toContain('High-quality firearms.');
    expect(page).toContain('<div id="root"><main>AR-15</main></div>');
    expect(page).toMatch(/^<!doctype html><html data-rendered="catalog@1.0.0" lang=en>/);
    expect(page).not.toContain('<noscript>');
    expect(page).toContain('<script>start()</script>');
  });

  it("keeps the page's title and description when the screen sets none", () => {
    const page = composePage(TEMPLATE, { head: '', body: '', data });
    expect(page).toContain('<title>Firearms Store</title>');
    expect(page).toContain('High-quality firearms.');
  });

  it('takes the quoted form of the page too (an unminified build)', () => {
    const quoted =
      '<!doctype html><html lang="en"><head><title>Firearms Store</title><meta name="description" content="Default.">' +
      '</head><body><div id="root"></div></body></html>';
    const page = composePage(quoted, {
      head: '<title>T</title><meta name="description" content="Own."/>',
      body: '<main>x</main>',
      data,
    });
    expect(page).toContain('<div id="root"><main>x</main></div><script type="application/json"');
    expect(page).not.toContain('Default.');
    expect(page).toContain('<html data-rendered="catalog@1.0.0" lang="en">');
  });

  it('replaces the title alone when the screen sets no description, and refuses a page without #root', () => {
    const page = composePage(TEMPLATE, { head: '<title>Category: Rifles</title>', body: '', data });
    expect(page.match(/<title>/g)).toHaveLength(1);
    expect(page).toContain('<title>Category: Rifles</title>');
    expect(page).toContain('High-quality firearms.');
    expect(() =>
      composePage('<html><head></head><body></body></html>', { head: '', body: '', data }),
    ).toThrow(/no <div id="root">/);
  });

  it('puts text holding replacement patterns ($&, $`) in as it is', () => {
    const page = composePage(TEMPLATE, {
      head: '<meta name="x" content="$&"/>',
      body: "<p>Save $& and $' and $` now</p>",
      data,
    });
    expect(page).toContain('<div id="root"><p>Save $& and $\' and $` now</p></div>');
    expect(page).toContain('<meta name="x" content="$&"/></head>');
  });

  it('embeds the data once, in a block no value can end early', () => {
    const hostile = {
      ...data,
      answers: {
        '/api/x': { ok: true as const, status: 200, data: { name: '</script><script>alert(1)</script>' } },
      },
    };
    const page = composePage(TEMPLATE, { head: '', body: '', data: hostile });
    const blocks = [
      ...page.matchAll(/<script type="application\/json" id="shop-first-screen">([\s\S]*?)<\/script>/g),
    ];
    expect(blocks).toHaveLength(1);
    expect(JSON.parse(blocks[0]![1]!)).toEqual(hostile);
    expect(page).not.toContain('<script>alert(1)');
  });

  it('lists the page’s script files and their preloads for after the first pictures, and loads none itself', () => {
    // As html-webpack-plugin and the first-load preload plugin write them (minified), in any attribute order.
    const built = TEMPLATE.replace(
      '</head>',
      '<link rel=stylesheet href=/1.0.0/747.css><link rel=preload as=script href=/1.0.0/framework.js>' +
        '<link as="script" rel="preload" href="/1.0.0/747.js"><script defer src=/1.0.0/main.js fetchpriority=high></script>' +
        '</head>',
    );
    const page = composePage(built, { head: '', body: '<main>x</main>', data });
    const block = /<script type="application\/json" id="shop-page-code">([\s\S]*?)<\/script>/.exec(page);
    expect(JSON.parse(block![1]!)).toEqual({
      scripts: ['/1.0.0/main.js'],
      preload: ['/1.0.0/framework.js', '/1.0.0/747.js'],
    });
    expect(page).not.toMatch(/<script[^>]*\bsrc=/);
    expect(page).not.toMatch(/<link[^>]*preload/);
    // What is not code stays: the stylesheet, the start script.
    expect(page).toContain('<link rel=stylesheet href=/1.0.0/747.css>');
    expect(page).toContain('<script>start()</script>');
  });

  it("splits React's hoisted head elements from the rest of a render", () => {
    expect(
      splitHead(
        '<title>T</title><meta name="a" content="b"/><link rel="canonical" href="/x"/><main><title>no</title></main>',
      ),
    ).toEqual({
      head: '<title>T</title><meta name="a" content="b"/><link rel="canonical" href="/x"/>',
      body: '<main><title>no</title></main>',
    });
  });

  it('knows which paths are catalogue screens, and which no screen answers', () => {
    expect(catalogScreenFor('/product/ar-15')).toEqual({
      remote: 'catalog',
      screen: 'ProductPage',
      route: '/product/:slug',
    });
    expect(catalogScreenFor('/about/team')).toMatchObject({ screen: 'AboutPage' });
    expect(catalogScreenFor('/')).toMatchObject({ screen: 'HomePage' });
    expect(catalogScreenFor('/cart')).toBeUndefined();
    expect(isKnownPath('/order/5')).toBe(true);
    expect(isKnownPath('/all-products')).toBe(true);
    expect(isKnownPath('/no-such-page')).toBe(false);
  });
});
