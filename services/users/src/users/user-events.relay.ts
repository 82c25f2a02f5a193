import { Inject, Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import {
  JetStreamEvents,
  OutboxRelayProvider,
  SERVICE_CONTEXT,
  type ServiceContext,
} from '@shop/service-kit';
import type { Model } from 'mongoose';
import { USER_MODEL, type UserRecord } from './user.schema';

const PURGE_INTERVAL_MS = 30_000;

/**
 * Publishes the events queued in user records (`user.deleted`, `user.promoted`,
 * `user.password-reset`) and purges deleted accounts once their `user.deleted` is out.
 */
@Injectable()
export class UserEventsRelay extends OutboxRelayProvider {
  private purger?: NodeJS.Timeout;

  constructor(
    @InjectModel(USER_MODEL) private readonly users: Model<UserRecord>,
    events: JetStreamEvents,
    @Inject(SERVICE_CONTEXT) private readonly context: ServiceContext,
  ) {
    super([users], events, context);
  }

  override async onApplicationBootstrap(): Promise<void> {
    await this.users.init();
    await super.onApplicationBootstrap();
    this.purger = setInterval(() => void this.purgeDeleted(), PURGE_INTERVAL_MS);
    this.purger.unref();
  }

  override async onModuleDestroy(): Promise<void> {
    clearInterval(this.purger);
    await super.onModuleDestroy();
  }

  /** Removes deleted accounts whose events have all been published; answers how many. */
  async purgeDeleted(): Promise<number> {
    try {
      const result = await this.users.deleteMany({
        deletedAt: { $ne: null },
        'outbox.0': { $exists: false },
      });
      return result.deletedCount;
    } catch (error) {
      this.context.logger.warn({ err: error }, 'purging deleted users failed');
      return 0;
    }
  }
}
