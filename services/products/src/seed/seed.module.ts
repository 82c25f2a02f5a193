import { type DynamicModule, Module } from '@nestjs/common';
import { ClientProxyFactory, Transport } from '@nestjs/microservices';
import type { ServiceContext } from '@shop/service-kit';
import type { ProductsConfig } from '../config/products.config';
import { ProductsModule } from '../products/products.module';
import { MEDIA_CLIENT, SeedImageStore } from './seed-image.store';
import { SeedService } from './seed.service';

/** The demo catalogue, seeded once per database with its pictures stored through media. */
@Module({})
export class SeedModule {
  static register(context: ServiceContext<ProductsConfig>): DynamicModule {
    return {
      module: SeedModule,
      imports: [ProductsModule],
      providers: [
        {
          provide: MEDIA_CLIENT,
          useFactory: () =>
            ClientProxyFactory.create({
              transport: Transport.NATS,
              options: { servers: context.config.NATS_URL.split(','), name: `${context.name}-to-media` },
            }),
        },
        SeedImageStore,
        SeedService,
      ],
    };
  }
}
