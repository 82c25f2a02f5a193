import { type DynamicModule, Module } from '@nestjs/common';
import { AuthModule, ServiceKitModule, type ServiceContext } from '@shop/service-kit';
import { CatalogCacheModule } from './catalog-cache';
import type { ProductsConfig } from './config/products.config';
import { ProductsModule } from './products/products.module';
import { SeedModule } from './seed/seed.module';
import { SitemapModule } from './sitemap/sitemap.module';
import { StockModule } from './stock/stock.module';

/** The products service: the kit's plumbing and one module per domain folder. */
@Module({})
export class AppModule {
  static register(context: ServiceContext<ProductsConfig>): DynamicModule {
    const { config } = context;
    return {
      module: AppModule,
      imports: [
        ServiceKitModule.forRoot(context),
        AuthModule.forRoot(context),
        CatalogCacheModule.register({
          maxEntries: config.CATALOG_CACHE_MAX_ENTRIES,
          maxBytes: config.CATALOG_CACHE_MAX_BYTES,
          maxAgeMs: config.CATALOG_CACHE_MAX_AGE_MS,
        }),
        ProductsModule,
        StockModule,
        SeedModule,
        SitemapModule,
      ],
    };
  }
}
