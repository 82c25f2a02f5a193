import { createHash } from 'node:crypto';
import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { SERVICE_CONTEXT, type ServiceContext } from '@shop/service-kit';
import type { Model } from 'mongoose';
import { Clock } from '../clock/clock';
import type { UsersConfig } from '../config/users.config';
import { ATTEMPT_WINDOW_MODEL, type AttemptWindowRecord } from './attempt-window.schema';
import { TooManyAttemptsException } from './too-many-attempts.exception';

export type ThrottledAction = 'signin' | 'signup' | 'forgot' | 'reset';

/** Who is attempting: the account named in the request (an e-mail) and the client address. */
export interface Attempter {
  account: string;
  address: string;
}

/** The counters one attempt was counted in, to give back when it turns out a success. */
export interface AttemptTicket {
  windowIds: string[];
}

const SWEEP_INTERVAL_MS = 60_000;

function digest(value: string): string {
  return createHash('sha256').update(value).digest('base64url');
}

/**
 * Counts attempts per account and per client address in fixed windows stored in the service's
 * database, so every replica shares them. Counting is one atomic upsert with `$inc` per counter,
 * done before the attempt is judged, so parallel requests cannot slip past the limit.
 */
@Injectable()
export class AttemptThrottle implements OnModuleInit, OnModuleDestroy {
  private sweeper?: NodeJS.Timeout;

  constructor(
    @InjectModel(ATTEMPT_WINDOW_MODEL) private readonly windows: Model<AttemptWindowRecord>,
    @Inject(SERVICE_CONTEXT) private readonly context: ServiceContext<UsersConfig>,
    private readonly clock: Clock,
  ) {}

  /** Counts one attempt, or throws a 429 when the account or the address is over its limit. */
  async take(action: ThrottledAction, attempter: Attempter): Promise<AttemptTicket> {
    const config = this.context.config;
    const prefix = `THROTTLE_${action.toUpperCase()}` as const;
    const limits = {
      account: config[`${prefix}_PER_ACCOUNT` as keyof UsersConfig] as number,
      address: config[`${prefix}_PER_ADDRESS` as keyof UsersConfig] as number,
    };
    const windowMs = config.THROTTLE_WINDOW * 1_000;
    const now = this.clock.now().getTime();
    const start = Math.floor(now / windowMs) * windowMs;
    const expiresAt = new Date(start + windowMs);
    const scopes = ['account', 'address'] as const;
    const windowIds = scopes.map(
      (scope) => `${action}:${scope}:${digest(attempter[scope].toLowerCase())}:${start}`,
    );
    const counts = await Promise.all(windowIds.map((id) => this.count(id, expiresAt)));
    if (counts.some((count, index) => count > limits[scopes[index]!])) {
      throw new TooManyAttemptsException(Math.max(1, Math.ceil((start + windowMs - now) / 1_000)));
    }
    return { windowIds };
  }

  /** Gives an attempt back, e.g. a sign-in that succeeded (only failures should use up the limit). */
  async release(ticket: AttemptTicket): Promise<void> {
    await Promise.all(
      ticket.windowIds.map((id) =>
        this.windows.updateOne({ _id: id, count: { $gt: 0 } }, { $inc: { count: -1 } }),
      ),
    );
  }

  async onModuleInit(): Promise<void> {
    await this.windows.init();
    this.sweeper = setInterval(() => void this.sweep(), SWEEP_INTERVAL_MS);
    this.sweeper.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.sweeper);
  }

  /** Removes ended windows (no TTL indexes on the embedded database). */
  async sweep(): Promise<number> {
    try {
      const result = await this.windows.deleteMany({ expiresAt: { $lt: this.clock.now() } });
      return result.deletedCount;
    } catch (error) {
      this.context.logger.warn({ err: error }, 'attempt window sweep failed');
      return 0;
    }
  }

  private async count(id: string, expiresAt: Date): Promise<number> {
    const update = { $inc: { count: 1 }, $setOnInsert: { expiresAt } };
    for (let attempt = 0; ; attempt += 1) {
      try {
        const window = await this.windows
          .findOneAndUpdate({ _id: id }, update, { upsert: true, returnDocument: 'after' })
          .lean<AttemptWindowRecord>();
        return window?.count ?? 1;
      } catch (error) {
        // Two first attempts raced to insert the window; the loser increments the winner's.
        if ((error as { code?: unknown }).code !== 11000 || attempt >= 2) throw error;
      }
    }
  }
}
