import { describe, expect, it } from 'vitest';
import { staticCopyOf, withoutScripts } from './static-copy.js';

const page = [
  '<html><head>',
  '<link rel="stylesheet" href="/0.2.0/371.css"/>',
  '<link rel="stylesheet" href="http://127.0.0.1:8000/remotes/catalog/0.2.0/ProductPage.css"/>',
  '<link rel="canonical" href="http://127.0.0.1:8000/product/glock"/>',
  '<link rel="preload" as="script" href="/0.2.0/main.js"/>',
  '<link rel="preload" as="image" href="/media/glock.png?w=960"/>',
  '<script>start()</script>',
  '<script type="application/json" id="shop-page-code">{"scripts":["/0.2.0/main.js"]}</script>',
  '</head><body><img src="/media/glock.png?w=960"/></body></html>',
].join('');

describe('the static copy of a rendered page', () => {
  it('has no script, inline, data block or preloaded', () => {
    const copy = withoutScripts(page);
    expect(copy).not.toMatch(/<script|as="script"/);
    expect(copy).toContain('<link rel="preload" as="image" href="/media/glock.png?w=960"/>');
  });

  it("links the shop's stylesheets by path, so its own origin serves them; other links stay as they are", () => {
    const copy = staticCopyOf(page, 'http://127.0.0.1:8000');
    expect(copy).toContain('<link rel="stylesheet" href="/remotes/catalog/0.2.0/ProductPage.css"/>');
    expect(copy).toContain('<link rel="stylesheet" href="/0.2.0/371.css"/>');
    expect(copy).toContain('<link rel="canonical" href="http://127.0.0.1:8000/product/glock"/>');
    expect(copy).not.toContain('<script');
  });
});
