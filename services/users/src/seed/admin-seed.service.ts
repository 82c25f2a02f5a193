import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { SERVICE_CONTEXT, type ServiceContext, isDuplicateKey } from '@shop/service-kit';
import type { Model } from 'mongoose';
import type { UsersConfig } from '../config/users.config';
import { PasswordHasher } from '../passwords/password-hasher';
import { USER_MODEL, type UserRecord } from '../users/user.schema';

/**
 * Creates the admin account from `ADMIN_EMAIL` / `ADMIN_PASSWORD` when no account has that
 * address. An existing account is never touched, so a changed password survives restarts.
 */
@Injectable()
export class AdminSeedService implements OnApplicationBootstrap {
  constructor(
    @InjectModel(USER_MODEL) private readonly users: Model<UserRecord>,
    @Inject(SERVICE_CONTEXT) private readonly context: ServiceContext<UsersConfig>,
    private readonly hasher: PasswordHasher,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    // The unique e-mail index must exist before anyone signs up, and querying a collection the
    // embedded database is still creating can fail.
    await this.users.init();
    await this.seed();
  }

  /** Answers whether the account was created. */
  async seed(): Promise<boolean> {
    const { ADMIN_EMAIL, ADMIN_PASSWORD, ADMIN_NAME } = this.context.config;
    const existing = await this.users.findOne({ email: ADMIN_EMAIL }).select('isAdmin').lean();
    if (existing) {
      if (!existing.isAdmin) {
        this.context.logger.warn(
          { email: ADMIN_EMAIL },
          'ADMIN_EMAIL belongs to an account that is not an admin',
        );
      }
      return false;
    }
    const passwordHash = await this.hasher.hash(ADMIN_PASSWORD);
    // Upsert on the address: replicas starting together create one account, not two.
    const result = await this.users
      .updateOne(
        { email: ADMIN_EMAIL },
        {
          $setOnInsert: {
            name: ADMIN_NAME,
            email: ADMIN_EMAIL,
            passwordHash,
            isAdmin: true,
            sessionsValidFrom: 0,
            passwordReset: null,
            deletedAt: null,
          },
        },
        { upsert: true },
      )
      .catch((error: unknown) => {
        // Another replica inserted it between our look-up and our upsert.
        if (isDuplicateKey(error)) return { upsertedCount: 0 };
        throw error;
      });
    if (result.upsertedCount > 0) this.context.logger.info({ email: ADMIN_EMAIL }, 'admin account created');
    return result.upsertedCount > 0;
  }
}
