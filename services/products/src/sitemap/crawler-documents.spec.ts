import { describe, expect, it } from 'vitest';
import { URLS_PER_SITEMAP, absolute, productSitemapCount, robotsTxt } from './crawler-documents';

describe('robotsTxt', () => {
  it('keeps crawlers out of the cart, checkout, account, admin and API, and names the sitemap', () => {
    const text = robotsTxt('https://shop.example');
    const disallowed = text
      .split('\n')
      .filter((line) => line.startsWith('Disallow: '))
      .map((line) => line.slice('Disallow: '.length));
    for (const path of ['/api/', '/cart', '/shipping', '/placeorder', '/profile', '/all-orders', '/order/']) {
      expect(disallowed).toContain(path);
    }
    for (const open of ['/', '/product/', '/category/', '/search', '/about', '/legal']) {
      expect(disallowed).not.toContain(open);
    }
    expect(text).toMatch(/^User-agent: \*$/m);
    expect(text).toMatch(/^Sitemap: https:\/\/shop\.example\/sitemap\.xml$/m);
  });
});

describe('productSitemapCount', () => {
  it('cuts the products into files of at most 50,000 URLs', () => {
    expect(productSitemapCount(0)).toBe(1);
    expect(productSitemapCount(URLS_PER_SITEMAP)).toBe(1);
    expect(productSitemapCount(URLS_PER_SITEMAP + 1)).toBe(2);
    expect(productSitemapCount(3 * URLS_PER_SITEMAP)).toBe(3);
  });
});

describe('absolute', () => {
  it('joins the public address and a path, with or without a trailing slash', () => {
    expect(absolute('http://localhost:8000', '/product/a')).toBe('http://localhost:8000/product/a');
    expect(absolute('https://shop.example/', '/sitemap.xml')).toBe('https://shop.example/sitemap.xml');
  });
});
