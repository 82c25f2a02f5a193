import { Module } from '@nestjs/common';
import { ThrottlingModule } from '../throttling/throttling.module';
import { GridFsImageStore } from './gridfs-image.store';
import { ImageVariantsService } from './image-variants.service';
import { ImagesController } from './images.controller';
import { ImagesService } from './images.service';
import { MultipartSetup } from './multipart.setup';

/** Uploading and serving images and their resized copies; other features store through `ImagesService`. */
@Module({
  imports: [ThrottlingModule],
  controllers: [ImagesController],
  providers: [MultipartSetup, GridFsImageStore, ImagesService, ImageVariantsService],
  exports: [ImagesService],
})
export class ImagesModule {}
