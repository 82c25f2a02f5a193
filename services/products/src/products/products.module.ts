import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { ListingsController } from './listings.controller';
import { ProductEventsRelay } from './product-events.relay';
import { PRODUCT_MODEL, productSchema } from './product.schema';
import { ProductsAdminService } from './products-admin.service';
import { ProductsController } from './products.controller';
import { ProductsService } from './products.service';

/**
 * The products: shoppers' reads and searches, the admin's changes and their events. It owns the
 * product model and exports it to the modules that write stock (stock/) and seed (seed/).
 */
@Module({
  imports: [MongooseModule.forFeature([{ name: PRODUCT_MODEL, schema: productSchema }])],
  controllers: [ProductsController, ListingsController],
  providers: [ProductsService, ProductsAdminService, ProductEventsRelay],
  exports: [MongooseModule],
})
export class ProductsModule {}
