import { type DynamicModule, Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { ServiceKitModule, type ServiceContext } from '@shop/service-kit';
import type { ProductsConfig } from './config/products.config';
import { PRODUCT_MODEL, productSchema } from './products/product.schema';
import { ProductsController } from './products/products.controller';
import { ProductsService } from './products/products.service';
import { DemoImagesController } from './seed/demo-images.controller';
import { SeedService } from './seed/seed.service';

@Module({})
export class AppModule {
  static register(context: ServiceContext<ProductsConfig>): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ServiceKitModule.forRoot(context),
        MongooseModule.forFeature([{ name: PRODUCT_MODEL, schema: productSchema }]),
      ],
      controllers: [DemoImagesController, ProductsController],
      providers: [ProductsService, SeedService],
    };
  }
}
