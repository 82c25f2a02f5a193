import { type DynamicModule, Module } from '@nestjs/common';
import { AuthModule, ServiceKitModule, type ServiceContext } from '@shop/service-kit';
import type { MediaConfig } from './config/media.config';
import { ImagesModule } from './images/images.module';
import { SeedImagesModule } from './seed/seed-images.module';

/** The media service: the kit's plumbing and one module per feature. */
@Module({})
export class AppModule {
  static register(context: ServiceContext<MediaConfig>): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ServiceKitModule.forRoot(context),
        AuthModule.forRoot(context),
        ImagesModule,
        SeedImagesModule,
      ],
    };
  }
}
