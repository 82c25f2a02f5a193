import { Inject, Injectable, ServiceUnavailableException } from '@nestjs/common';
import type { ClientProxy } from '@nestjs/microservices';
import {
  MEDIA_STORE_SEED_IMAGE,
  type StoreSeedImageReply,
  type StoreSeedImageRequest,
  isMediaUrl,
} from '@shop/contracts';
import { SERVICE_CONTEXT, type ServiceContext, requestReply } from '@shop/service-kit';
import type { ProductsConfig } from '../config/products.config';

/** Injection token of the NATS client the seed asks the media service with. */
export const MEDIA_CLIENT = Symbol('MEDIA_CLIENT');

const RETRY_DELAY_MS = 500;

/**
 * Stores the demo catalogue's pictures through the media service (`media.store-seed-image`): this
 * service may not write media's database, and services talk over NATS only.
 */
@Injectable()
export class SeedImageStore {
  constructor(
    @Inject(MEDIA_CLIENT) private readonly client: ClientProxy,
    @Inject(SERVICE_CONTEXT) private readonly context: ServiceContext<ProductsConfig>,
  ) {}

  /**
   * Answers the media URL of one image. Services start in parallel, so while media does not answer
   * it asks again until `deadline` (ms since the epoch); a refusal from media is final.
   */
  async store(request: StoreSeedImageRequest, deadline: number): Promise<string> {
    for (;;) {
      try {
        const reply = await requestReply<StoreSeedImageReply>(
          this.client,
          MEDIA_STORE_SEED_IMAGE,
          request,
          this.context.config.NATS_REQUEST_TIMEOUT_MS,
        );
        if (!isMediaUrl(reply?.url)) throw new Error(`media answered no media URL for ${request.seedKey}`);
        return reply.url;
      } catch (error) {
        if (!(error instanceof ServiceUnavailableException) || Date.now() >= deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, RETRY_DELAY_MS));
      }
    }
  }
}
