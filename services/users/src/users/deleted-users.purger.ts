import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { PassLoop, SERVICE_CONTEXT, type ServiceContext } from '@shop/service-kit';
import type { Model } from 'mongoose';
import { USER_MODEL, type UserRecord } from './user.schema';

const PURGE_INTERVAL_MS = 30_000;

/**
 * Removes deleted accounts once their `user.deleted` has left the outbox (a deleted account stays,
 * anonymised and invisible, until then), every 30 seconds.
 */
@Injectable()
export class DeletedUsersPurger implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly loop: PassLoop;

  constructor(
    @InjectModel(USER_MODEL) private readonly users: Model<UserRecord>,
    @Inject(SERVICE_CONTEXT) context: ServiceContext,
  ) {
    this.loop = new PassLoop({
      pass: () => this.purge(),
      intervalMs: PURGE_INTERVAL_MS,
      onError: (error) => context.logger.warn({ err: error }, 'purging deleted users failed'),
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.users.init();
    this.loop.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.loop.stop();
  }

  /** Removes the deleted accounts whose events have all been published; answers how many. */
  async purge(): Promise<number> {
    const result = await this.users.deleteMany({ deletedAt: { $ne: null }, 'outbox.0': { $exists: false } });
    return result.deletedCount;
  }
}
