import { type DynamicModule, Module } from '@nestjs/common';
import { ClientProxyFactory, Transport } from '@nestjs/microservices';
import { MongooseModule } from '@nestjs/mongoose';
import { AuthModule, ServiceKitModule, type ServiceContext } from '@shop/service-kit';
import type { ProductsConfig } from './config/products.config';
import { CatalogueCache } from './products/catalogue-cache';
import { CatalogueInvalidation } from './products/catalogue-invalidation';
import { CatalogueHttpHooks, CatalogueReadInterceptor } from './products/catalogue-read.interceptor';
import { ListingsController } from './products/listings.controller';
import { ProductEventsRelay } from './products/product-events.relay';
import { PRODUCT_MODEL, productSchema } from './products/product.schema';
import { ProductsAdminService } from './products/products-admin.service';
import { ProductsController } from './products/products.controller';
import { ProductsService } from './products/products.service';
import { MEDIA_CLIENT, SeedImageStore } from './seed/seed-image.store';
import { SeedService } from './seed/seed.service';
import { PaidOrdersConsumer } from './stock/paid-orders.consumer';
import { ReservationRecoveryScheduler } from './stock/reservation-recovery.scheduler';
import { STOCK_RESERVATION_MODEL, stockReservationSchema } from './stock/stock-reservation.schema';
import { StockReservationsController } from './stock/stock-reservations.controller';
import { StockReservationsService } from './stock/stock-reservations.service';

@Module({})
export class AppModule {
  static register(context: ServiceContext<ProductsConfig>): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ServiceKitModule.forRoot(context),
        AuthModule.forRoot(context),
        MongooseModule.forFeature([
          { name: PRODUCT_MODEL, schema: productSchema },
          { name: STOCK_RESERVATION_MODEL, schema: stockReservationSchema },
        ]),
      ],
      controllers: [ProductsController, ListingsController, StockReservationsController],
      providers: [
        {
          provide: MEDIA_CLIENT,
          useFactory: () =>
            ClientProxyFactory.create({
              transport: Transport.NATS,
              options: { servers: context.config.NATS_URL.split(','), name: `${context.name}-to-media` },
            }),
        },
        {
          provide: CatalogueCache,
          useFactory: () =>
            new CatalogueCache({
              maxEntries: context.config.CATALOGUE_CACHE_MAX_ENTRIES,
              maxBytes: context.config.CATALOGUE_CACHE_MAX_BYTES,
              maxAgeMs: context.config.CATALOGUE_CACHE_MAX_AGE_MS,
            }),
        },
        CatalogueInvalidation,
        CatalogueReadInterceptor,
        CatalogueHttpHooks,
        ProductsService,
        ProductEventsRelay,
        ProductsAdminService,
        StockReservationsService,
        ReservationRecoveryScheduler,
        PaidOrdersConsumer,
        SeedImageStore,
        SeedService,
      ],
    };
  }
}
