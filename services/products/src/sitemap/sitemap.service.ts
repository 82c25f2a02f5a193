import { Injectable, NotFoundException } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import { SitemapIndexStream, SitemapStream, streamToPromise } from 'sitemap';
import type { Transform } from 'node:stream';
import { PRODUCT_MODEL, type ProductRecord } from '../products/product.schema';
import { FIXED_PAGES, URLS_PER_SITEMAP, absolute, productSitemapCount } from './crawler-documents';

const LIVE = { deletedAt: null };
/** Only the sitemap namespace: the pages carry no news, image, video or language alternates. */
const PLAIN = { xmlns: { news: false, video: false, image: false, xhtml: false } };

interface Entry {
  path: string;
  lastmod?: Date;
}

/**
 * The sitemap of the storefront, from the catalogue as it is now: an index naming one file of the fixed
 * pages and categories and as many product files as 50,000 URLs each need. Dates are the products'
 * `updatedAt`: a removal updates it too, so the index's date moves when a product leaves.
 */
@Injectable()
export class SitemapService {
  constructor(@InjectModel(PRODUCT_MODEL) private readonly products: Model<ProductRecord>) {}

  async index(publicUrl: string): Promise<string> {
    const [count, newest] = await Promise.all([this.products.countDocuments(LIVE), this.lastChange({})]);
    const files = ['/sitemaps/pages.xml'];
    for (let page = 1; page <= productSitemapCount(count); page++)
      files.push(`/sitemaps/products-${page}.xml`);
    const stream = new SitemapIndexStream();
    return xml(
      stream,
      files.map((path) => ({ url: absolute(publicUrl, path), lastmod: newest?.toISOString() })),
    );
  }

  /** Home, about and legal, and every category with its newest product change. */
  async pages(publicUrl: string): Promise<string> {
    const [newest, categories] = await Promise.all([
      this.lastChange(LIVE),
      this.products.aggregate<{ _id: string; lastmod: Date }>([
        { $match: LIVE },
        { $group: { _id: '$category', lastmod: { $max: '$updatedAt' } } },
        { $sort: { _id: 1 } },
      ]),
    ]);
    const entries: Entry[] = [
      ...FIXED_PAGES.map((path) => ({ path, lastmod: path === '/' ? newest : undefined })),
      ...categories.map(({ _id, lastmod }) => ({ path: `/category/${encodeURIComponent(_id)}`, lastmod })),
    ];
    return urlset(publicUrl, entries);
  }

  /** The products of file `page` (from 1), in a stable order, at most 50,000. */
  async productPage(publicUrl: string, page: number): Promise<string> {
    const count = await this.products.countDocuments(LIVE);
    if (!Number.isInteger(page) || page < 1 || page > productSitemapCount(count))
      throw new NotFoundException('No such sitemap');
    const found = await this.products
      .find(LIVE, { slug: 1, updatedAt: 1 })
      .sort({ _id: 1 })
      .skip((page - 1) * URLS_PER_SITEMAP)
      .limit(URLS_PER_SITEMAP)
      .lean<Array<{ slug: string; updatedAt: Date }>>();
    return urlset(
      publicUrl,
      found.map(({ slug, updatedAt }) => ({
        path: `/product/${encodeURIComponent(slug)}`,
        lastmod: updatedAt,
      })),
    );
  }

  private async lastChange(filter: object): Promise<Date | undefined> {
    const newest = await this.products
      .findOne(filter, { updatedAt: 1 })
      .sort({ updatedAt: -1 })
      .lean<{ updatedAt: Date }>();
    return newest?.updatedAt;
  }
}

function urlset(publicUrl: string, entries: Entry[]): Promise<string> {
  return xml(
    new SitemapStream(PLAIN),
    entries.map(({ path, lastmod }) => ({ url: absolute(publicUrl, path), lastmod: lastmod?.toISOString() })),
  );
}

async function xml(stream: Transform, items: object[]): Promise<string> {
  const done = streamToPromise(stream);
  for (const item of items) stream.write(item);
  stream.end();
  return (await done).toString('utf8');
}
