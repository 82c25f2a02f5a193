import { type DynamicModule, Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { AuthModule, ServiceKitModule, type ServiceContext } from '@shop/service-kit';
import type { MediaConfig } from './config/media.config';
import { GridFsImageStore } from './images/gridfs-image.store';
import { ImagesController } from './images/images.controller';
import { ImageVariants } from './images/image-variants.service';
import { ImagesService } from './images/images.service';
import { MultipartSetup } from './images/multipart.setup';
import { SeedImagesController } from './seed/seed-images.controller';
import { UPLOAD_WINDOW_MODEL, uploadWindowSchema } from './throttling/upload-window.schema';
import { UploadThrottle } from './throttling/upload-throttle.service';

@Module({})
export class AppModule {
  static register(context: ServiceContext<MediaConfig>): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ServiceKitModule.forRoot(context),
        AuthModule.forRoot(context),
        MongooseModule.forFeature([{ name: UPLOAD_WINDOW_MODEL, schema: uploadWindowSchema }]),
      ],
      controllers: [ImagesController, SeedImagesController],
      providers: [MultipartSetup, GridFsImageStore, ImagesService, ImageVariants, UploadThrottle],
    };
  }
}
