import { randomBytes } from 'node:crypto';
import { Controller, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MessagePattern, type MicroserviceOptions, Payload, Transport } from '@nestjs/microservices';
import {
  MEDIA_STORE_SEED_IMAGE,
  type StoreSeedImageReply,
  type StoreSeedImageRequest,
} from '@shop/contracts';

/** What the fake received: one entry per seed key. */
export const storedSeedImages = new Map<string, { request: StoreSeedImageRequest; url: string }>();

@Controller()
class FakeMediaController {
  @MessagePattern(MEDIA_STORE_SEED_IMAGE)
  store(@Payload() request: StoreSeedImageRequest): StoreSeedImageReply {
    const known = storedSeedImages.get(request.seedKey);
    if (known) return { url: known.url };
    const url = `/api/media/${randomBytes(12).toString('hex')}/${Date.now()}-${request.seedKey}.png`;
    storedSeedImages.set(request.seedKey, { request, url });
    return { url };
  }
}

@Module({ controllers: [FakeMediaController] })
class FakeMediaModule {}

export interface FakeMedia {
  close(): Promise<void>;
}

/**
 * Stands in for the media service on NATS (same subject, same queue group): the products suite
 * checks what its seed sends and stores; the media suite proves the real answer.
 */
export async function startFakeMedia(natsUrl: string): Promise<FakeMedia> {
  const app = await NestFactory.createMicroservice<MicroserviceOptions>(FakeMediaModule, {
    transport: Transport.NATS,
    options: { servers: [natsUrl], queue: 'media' },
    logger: false,
  });
  await app.listen();
  return { close: () => app.close() };
}
