import { Module } from '@nestjs/common';
import { natsClientProvider } from '@shop/service-kit';
import { ProductsModule } from '../products/products.module';
import { MEDIA_CLIENT, SeedImageStore } from './seed-image.store';
import { SeedService } from './seed.service';

/** The demo catalogue, seeded once per database with its pictures stored through media. */
@Module({
  imports: [ProductsModule],
  providers: [natsClientProvider(MEDIA_CLIENT, 'media'), SeedImageStore, SeedService],
})
export class SeedModule {}
