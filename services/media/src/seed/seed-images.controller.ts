import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { MEDIA_STORE_SEED_IMAGE, type StoreSeedImageReply } from '@shop/contracts';
import { SERVICE_CONTEXT, type ServiceContext, rpcRefusal } from '@shop/service-kit';
import type { MediaConfig } from '../config/media.config';
import { ImagesService } from '../images/images.service';
import { StoreSeedImageDto } from './dto/store-seed-image.dto';

/**
 * `media.store-seed-image`: how a service's demo seed stores its pictures without an HTTP call or
 * a user token. Safe because NATS is reachable by the services only (never routed by the gateway),
 * the bytes pass the same checks as an upload, and production turns it off (ACCEPT_SEED_IMAGES).
 */
@Controller()
export class SeedImagesController {
  constructor(
    private readonly images: ImagesService,
    @Inject(SERVICE_CONTEXT) private readonly context: ServiceContext<MediaConfig>,
  ) {}

  @MessagePattern(MEDIA_STORE_SEED_IMAGE)
  store(@Payload() request: StoreSeedImageDto): Promise<StoreSeedImageReply> {
    if (!this.context.config.ACCEPT_SEED_IMAGES) throw rpcRefusal(403, 'Seed images are not accepted here');
    return this.images.storeSeedImage(request.seedKey, {
      bytes: Buffer.from(request.contentBase64, 'base64'),
      originalName: request.fileName,
    });
  }
}
