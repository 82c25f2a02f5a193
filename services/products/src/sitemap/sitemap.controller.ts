import { Controller, Get, Header, Inject, NotFoundException, Param } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { SERVICE_CONTEXT, type ServiceContext } from '@shop/service-kit';
import type { ProductsConfig } from '../config/products.config';
import { robotsTxt } from './crawler-documents';
import { SitemapService } from './sitemap.service';

const XML = 'application/xml; charset=utf-8';
/** Crawlers may keep a copy but ask again each time: an admin's change shows on the next fetch. */
const REVALIDATE = 'no-cache';

/**
 * The storefront's documents for crawlers, at the site's root (the gateway routes them here): they are
 * web documents, not API calls, so the API reference leaves them out (docs/decisions/0020).
 */
@ApiExcludeController()
@Controller()
export class SitemapController {
  private readonly publicUrl: string;

  constructor(
    private readonly sitemap: SitemapService,
    @Inject(SERVICE_CONTEXT) context: ServiceContext<ProductsConfig>,
  ) {
    this.publicUrl = context.config.PUBLIC_URL;
  }

  @Get('robots.txt')
  @Header('Content-Type', 'text/plain; charset=utf-8')
  @Header('Cache-Control', REVALIDATE)
  robots(): string {
    return robotsTxt(this.publicUrl);
  }

  @Get('sitemap.xml')
  @Header('Content-Type', XML)
  @Header('Cache-Control', REVALIDATE)
  index(): Promise<string> {
    return this.sitemap.index(this.publicUrl);
  }

  @Get('sitemaps/:file')
  @Header('Content-Type', XML)
  @Header('Cache-Control', REVALIDATE)
  file(@Param('file') file: string): Promise<string> {
    if (file === 'pages.xml') return this.sitemap.pages(this.publicUrl);
    const products = /^products-(\d{1,6})\.xml$/.exec(file);
    if (!products) throw new NotFoundException('No such sitemap');
    return this.sitemap.productPage(this.publicUrl, Number(products[1]));
  }
}
