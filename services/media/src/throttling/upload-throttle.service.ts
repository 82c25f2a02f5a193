import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import {
  FixedWindowCounters,
  type FixedWindowRecord,
  SERVICE_CONTEXT,
  type ServiceContext,
  TooManyRequestsException,
  fixedWindowAt,
} from '@shop/service-kit';
import type { Model } from 'mongoose';
import { MEDIA_MESSAGES } from '@shop/contracts';
import type { MediaConfig } from '../config/media.config';
import { UPLOAD_WINDOW_MODEL } from './upload-window.schema';

/**
 * Counts uploads per user in fixed windows stored in the service's database, so every replica
 * shares them (`FixedWindowCounters`: a conditional `$inc`, so parallel uploads cannot slip past
 * the limit). It counts before the upload is read, so refused files cost no work; a refusal is a 429 with
 * `Retry-After`.
 */
@Injectable()
export class UploadThrottleService implements OnModuleInit, OnModuleDestroy {
  private readonly counters: FixedWindowCounters;

  constructor(
    @InjectModel(UPLOAD_WINDOW_MODEL) windows: Model<FixedWindowRecord>,
    @Inject(SERVICE_CONTEXT) private readonly context: ServiceContext<MediaConfig>,
  ) {
    this.counters = new FixedWindowCounters(windows, context.logger);
  }

  /** Counts one upload of `userId`, or throws a 429 when the user is over the limit. */
  async take(userId: string, now = Date.now()): Promise<void> {
    const { UPLOADS_PER_WINDOW, UPLOAD_WINDOW_SECONDS } = this.context.config;
    const window = fixedWindowAt(now, UPLOAD_WINDOW_SECONDS * 1_000);
    const taken = await this.counters.take(`${userId}:${window.start}`, window.expiresAt, UPLOADS_PER_WINDOW);
    if (!taken) throw new TooManyRequestsException(MEDIA_MESSAGES.tooManyUploads, window.retryAfterSeconds);
  }

  onModuleInit(): void {
    this.counters.startSweeping();
  }

  onModuleDestroy(): void {
    this.counters.stopSweeping();
  }
}
