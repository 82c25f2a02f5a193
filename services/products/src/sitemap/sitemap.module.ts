import { Module } from '@nestjs/common';
import { ProductsModule } from '../products/products.module';
import { SitemapController } from './sitemap.controller';
import { SitemapService } from './sitemap.service';

/** robots.txt and the sitemap: what crawlers are told about the storefront, from the catalogue. */
@Module({
  imports: [ProductsModule],
  controllers: [SitemapController],
  providers: [SitemapService],
})
export class SitemapModule {}
