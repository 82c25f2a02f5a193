import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { SERVICE_CONTEXT, type ServiceContext } from '@shop/service-kit';
import type { Model } from 'mongoose';
import type { MediaConfig } from '../config/media.config';
import { TooManyUploadsException } from './too-many-uploads.exception';
import { UPLOAD_WINDOW_MODEL, type UploadWindowRecord } from './upload-window.schema';

const SWEEP_INTERVAL_MS = 60_000;

/**
 * Counts uploads per user in fixed windows stored in the service's database, so every replica
 * shares them. Counting is one atomic upsert with `$inc`, done before the upload is read, so
 * parallel uploads cannot slip past the limit and refused files cost no work.
 */
@Injectable()
export class UploadThrottle implements OnModuleInit, OnModuleDestroy {
  private sweeper?: NodeJS.Timeout;

  constructor(
    @InjectModel(UPLOAD_WINDOW_MODEL) private readonly windows: Model<UploadWindowRecord>,
    @Inject(SERVICE_CONTEXT) private readonly context: ServiceContext<MediaConfig>,
  ) {}

  /** Counts one upload of `userId`, or throws a 429 when the user is over the limit. */
  async take(userId: string, now = Date.now()): Promise<void> {
    const { UPLOADS_PER_WINDOW, UPLOAD_WINDOW_SECONDS } = this.context.config;
    const windowMs = UPLOAD_WINDOW_SECONDS * 1_000;
    const start = Math.floor(now / windowMs) * windowMs;
    const count = await this.count(`${userId}:${start}`, new Date(start + windowMs));
    if (count > UPLOADS_PER_WINDOW) {
      throw new TooManyUploadsException(Math.max(1, Math.ceil((start + windowMs - now) / 1_000)));
    }
  }

  onModuleInit(): void {
    this.sweeper = setInterval(() => void this.sweep(), SWEEP_INTERVAL_MS);
    this.sweeper.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.sweeper);
  }

  /** Removes ended windows (no TTL indexes on the embedded database); answers how many. */
  async sweep(now = new Date()): Promise<number> {
    try {
      return (await this.windows.deleteMany({ expiresAt: { $lt: now } })).deletedCount;
    } catch (error) {
      this.context.logger.warn({ err: error }, 'upload window sweep failed');
      return 0;
    }
  }

  private async count(id: string, expiresAt: Date): Promise<number> {
    const update = { $inc: { count: 1 }, $setOnInsert: { expiresAt } };
    for (let attempt = 0; ; attempt += 1) {
      try {
        const window = await this.windows
          .findOneAndUpdate({ _id: id }, update, { upsert: true, returnDocument: 'after' })
          .lean<UploadWindowRecord>();
        return window?.count ?? 1;
      } catch (error) {
        // Two first uploads raced to insert the window; the loser increments the winner's.
        if ((error as { code?: unknown }).code !== 11000 || attempt >= 2) throw error;
      }
    }
  }
}
