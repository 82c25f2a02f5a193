import { Module } from '@nestjs/common';
import { ImagesModule } from '../images/images.module';
import { SeedImagesController } from './seed-images.controller';

/** The demo seeds' pictures, stored over NATS (`media.store-seed-image`). */
@Module({
  imports: [ImagesModule],
  controllers: [SeedImagesController],
})
export class SeedImagesModule {}
