// What search engines and link previews read about a page: schema.org JSON-LD (typed by schema-dts) and
// the share image. Pure, so the same values serve the screens in the browser and rendered on the server
// (docs/decisions/0020-server-rendering.md).
import { isMediaUrl, mediaVariantUrl, type Product } from '@shop/contracts';
import type {
  BreadcrumbList,
  ListItem,
  Organization,
  Product as ProductThing,
  WebSite,
  WithContext,
} from 'schema-dts';

/** The width of the share image: Open Graph previews are drawn about 1,200 pixels wide. */
const SHARE_WIDTH = 1280;

/** Where a page's JSON-LD, canonical URL and share image point: the shop as shoppers reach it. */
export interface SiteIdentity {
  origin: string;
  siteName: string;
  currency: string;
}

/** An absolute URL of the shop. */
export function absoluteUrl(origin: string, path: string): string {
  return new URL(path, origin).href;
}

/** The picture a link preview shows: the media service's share-size variant, absolute. */
export function shareImage(origin: string, image: string | undefined): string | undefined {
  if (!image) return undefined;
  return absoluteUrl(origin, isMediaUrl(image) ? mediaVariantUrl(image, SHARE_WIDTH) : image);
}

/** A product with its offer (price, currency, stock) and, when reviewed, its rating. */
export function productStructuredData(product: Product, site: SiteIdentity): WithContext<ProductThing> {
  const url = absoluteUrl(site.origin, `/product/${product.slug}`);
  return {
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: product.name,
    description: product.description,
    sku: product._id,
    url,
    image: product.image.map((image) => shareImage(site.origin, image) ?? image),
    brand: { '@type': 'Brand', name: product.brand },
    category: product.category,
    offers: {
      '@type': 'Offer',
      url,
      price: product.price.toFixed(2),
      priceCurrency: site.currency,
      availability: product.countInStock > 0 ? 'https://schema.org/InStock' : 'https://schema.org/OutOfStock',
    },
    ...(product.numReviews > 0
      ? {
          aggregateRating: {
            '@type': 'AggregateRating',
            ratingValue: product.rating,
            reviewCount: product.numReviews,
            bestRating: 5,
            worstRating: 0,
          },
        }
      : {}),
  };
}

/** Home › the product's category › the product. */
export function productBreadcrumbs(product: Product, site: SiteIdentity): WithContext<BreadcrumbList> {
  const trail: Array<[string, string]> = [
    [site.siteName, '/'],
    [product.category, `/category/${encodeURIComponent(product.category)}`],
    [product.name, `/product/${product.slug}`],
  ];
  return {
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: trail.map(([name, path], index): ListItem => ({
      '@type': 'ListItem',
      position: index + 1,
      name,
      item: absoluteUrl(site.origin, path),
    })),
  };
}

/** The shop itself, on home: the site with its search (a search box in results) and its organisation. */
export function siteStructuredData(site: SiteIdentity): [WithContext<WebSite>, WithContext<Organization>] {
  const url = absoluteUrl(site.origin, '/');
  return [
    {
      '@context': 'https://schema.org',
      '@type': 'WebSite',
      name: site.siteName,
      url,
      potentialAction: {
        '@type': 'SearchAction',
        target: {
          '@type': 'EntryPoint',
          urlTemplate: `${absoluteUrl(site.origin, '/search')}?query={query}`,
        },
        // schema-dts types the Google extension 'query-input' nowhere: it is the documented form.
        ...{ 'query-input': 'required name=query' },
      },
    },
    { '@context': 'https://schema.org', '@type': 'Organization', name: site.siteName, url },
  ];
}

/**
 * JSON for a `<script type="application/ld+json">`: `<` is written as its escape, so a product text holding
 * `</script>` cannot end the block (the block is data, never run, so the page's CSP does not apply to it).
 */
export function jsonLdText(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}
