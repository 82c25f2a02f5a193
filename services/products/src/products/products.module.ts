import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { OutboxRelayProvider } from '@shop/service-kit';
import { LowStockMonitor } from '../low-stock/low-stock.monitor';
import { SITE_THRESHOLD_MODEL, siteThresholdSchema } from '../low-stock/site-threshold.schema';
import { ListingsController } from './listings.controller';
import { PRODUCT_MODEL, productSchema } from './product.schema';
import { ProductsAdminService } from './products-admin.service';
import { ProductsController } from './products.controller';
import { ProductsService } from './products.service';

/**
 * The products: shoppers' reads and searches, the admin's changes and their events. It owns the
 * product model and exports it to the modules that write stock (stock/) and seed (seed/).
 */
@Module({
  imports: [
    MongooseModule.forFeature([
      { name: PRODUCT_MODEL, schema: productSchema },
      { name: SITE_THRESHOLD_MODEL, schema: siteThresholdSchema },
    ]),
  ],
  controllers: [ProductsController, ListingsController],
  // Publishes the events queued in products (`product.updated`, `product.deleted`).
  // The low-stock monitor's `product.low-stock` too, and it flags what the admin's changes cross.
  providers: [
    ProductsService,
    ProductsAdminService,
    LowStockMonitor,
    OutboxRelayProvider.forModels(PRODUCT_MODEL),
  ],
  exports: [MongooseModule],
})
export class ProductsModule {}
