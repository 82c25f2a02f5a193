/**
 * What the shop tells crawlers: which storefront routes are not for indexing (robots.txt) and how the
 * sitemap is cut into files (at most 50,000 URLs each, sitemaps.org). Pure, so the rules are tested
 * without a server; the routes are the storefront's (docs/decisions/0020-server-rendering.md).
 */

/** The sitemaps.org limit of URLs in one sitemap file. */
export const URLS_PER_SITEMAP = 50_000;

/** Screens that are personal, transactional or for admins: client-rendered, `noindex`, never crawled. */
export const NOT_FOR_CRAWLERS = [
  '/api/',
  '/remotes/admin/',
  '/cart',
  '/signin',
  '/signup',
  '/forgot-password',
  '/reset-password',
  '/shipping',
  '/payment',
  '/placeorder',
  '/order/',
  '/orderhistory',
  '/profile',
  '/create-listing',
  '/all-products',
  '/update/',
  '/all-orders',
  '/wallet-update',
  '/website-update',
  '/audit-trail',
  '/fault-flags',
  '/all-users',
] as const;

/** The storefront pages that are always there, besides products and categories. */
export const FIXED_PAGES = ['/', '/about', '/legal'] as const;

/** robots.txt: everything allowed but the screens above, and where the sitemap is. */
export function robotsTxt(publicUrl: string): string {
  return [
    'User-agent: *',
    ...NOT_FOR_CRAWLERS.map((path) => `Disallow: ${path}`),
    '',
    `Sitemap: ${absolute(publicUrl, '/sitemap.xml')}`,
    '',
  ].join('\n');
}

/** How many product sitemap files `productCount` products need (at least one, so the index is never empty of them). */
export function productSitemapCount(productCount: number): number {
  return Math.max(1, Math.ceil(productCount / URLS_PER_SITEMAP));
}

/** An absolute URL of the shop from its public address (an origin) and a path. */
export function absolute(publicUrl: string, path: string): string {
  return new URL(path, publicUrl).href;
}
