import { describe, expect, it } from 'vitest';
import { testProduct } from '../../testing/products';
import {
  jsonLdText,
  productBreadcrumbs,
  productStructuredData,
  shareImage,
  siteStructuredData,
} from './structured-data';

const site = { origin: 'https://shop.example', siteName: 'Guns & Gear', currency: 'EUR' };
const media = '/api/media/0123456789abcdef01234567/1700000000000-g19.png';

describe('productStructuredData', () => {
  it('offers the product at its price in the site currency, in stock, with its rating', () => {
    const data = productStructuredData(testProduct({ image: [media] }), site);
    expect(data).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'Product',
      name: 'Glock 19 Gen 5',
      url: 'https://shop.example/product/glock-19-gen-5',
      image: [`https://shop.example${media}?w=1280`],
      brand: { '@type': 'Brand', name: 'Glock' },
      offers: {
        '@type': 'Offer',
        price: '1249.50',
        priceCurrency: 'EUR',
        availability: 'https://schema.org/InStock',
      },
      aggregateRating: { '@type': 'AggregateRating', ratingValue: 4.5, reviewCount: 12 },
    });
  });

  it('says OutOfStock at 0 and gives no rating to a product nobody reviewed', () => {
    const data = productStructuredData(testProduct({ countInStock: 0, numReviews: 0, rating: 0 }), site);
    expect(data).toMatchObject({ offers: { availability: 'https://schema.org/OutOfStock' } });
    expect(data).not.toHaveProperty('aggregateRating');
  });
});

describe('productBreadcrumbs', () => {
  it('leads from home through the category to the product, with absolute URLs', () => {
    const trail = productBreadcrumbs(testProduct({ category: 'Long Guns' }), site);
    expect(trail.itemListElement).toEqual([
      { '@type': 'ListItem', position: 1, name: 'Guns & Gear', item: 'https://shop.example/' },
      {
        '@type': 'ListItem',
        position: 2,
        name: 'Long Guns',
        item: 'https://shop.example/category/Long%20Guns',
      },
      {
        '@type': 'ListItem',
        position: 3,
        name: 'Glock 19 Gen 5',
        item: 'https://shop.example/product/glock-19-gen-5',
      },
    ]);
  });
});

describe('siteStructuredData', () => {
  it('names the site and its search, whose URL template the search screen reads', () => {
    const [website, organization] = siteStructuredData(site);
    expect(website).toMatchObject({
      '@type': 'WebSite',
      name: 'Guns & Gear',
      url: 'https://shop.example/',
      potentialAction: {
        '@type': 'SearchAction',
        target: { urlTemplate: 'https://shop.example/search?query={query}' },
        'query-input': 'required name=query',
      },
    });
    expect(organization).toMatchObject({ '@type': 'Organization', name: 'Guns & Gear' });
  });
});

describe('shareImage', () => {
  it('takes the share-size variant of a media URL and keeps another URL as it is, absolute', () => {
    expect(shareImage(site.origin, media)).toBe(`https://shop.example${media}?w=1280`);
    expect(shareImage(site.origin, '/img/g19.jpg')).toBe('https://shop.example/img/g19.jpg');
    expect(shareImage(site.origin, undefined)).toBeUndefined();
  });
});

describe('jsonLdText', () => {
  it('cannot be ended early by a text holding </script>', () => {
    const text = jsonLdText({ description: 'a</script><script>alert(1)</script>' });
    expect(text).not.toContain('<');
    expect(JSON.parse(text)).toEqual({ description: 'a</script><script>alert(1)</script>' });
  });
});
