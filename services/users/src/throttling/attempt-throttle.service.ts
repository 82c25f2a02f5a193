import { createHash } from 'node:crypto';
import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import {
  FixedWindowCounters,
  type FixedWindowRecord,
  SERVICE_CONTEXT,
  type ServiceContext,
  TooManyRequestsException,
  fixedWindowAt,
  shopCounter,
} from '@shop/service-kit';
import type { Model } from 'mongoose';
import { Clock } from '../clock/clock';
import type { UsersConfig } from '../config/users.config';
import { ATTEMPT_WINDOW_MODEL } from './attempt-window.schema';

const TOO_MANY_ATTEMPTS_MESSAGE = 'Too many attempts, please try again later';

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

function digest(value: string): string {
  return createHash('sha256').update(value).digest('base64url');
}

/**
 * Counts attempts per account and per client address in fixed windows stored in the service's
 * database, so every replica shares them (`FixedWindowCounters`: a conditional `$inc` per counter,
 * so parallel requests cannot slip past the limit). It counts before the attempt is judged; a refusal is a 429 with `Retry-After`.
 */
@Injectable()
export class AttemptThrottleService implements OnModuleInit, OnModuleDestroy {
  private readonly counters: FixedWindowCounters;
  private readonly throttled = shopCounter(
    'shop.attempts.throttled',
    'Attempts refused with 429 for going over their limit, by action (signin, signup, forgot, reset)',
  );

  constructor(
    @InjectModel(ATTEMPT_WINDOW_MODEL) private readonly windows: Model<FixedWindowRecord>,
    @Inject(SERVICE_CONTEXT) private readonly context: ServiceContext<UsersConfig>,
    private readonly clock: Clock,
  ) {
    this.counters = new FixedWindowCounters(windows, context.logger);
  }

  /** Counts one attempt, or throws a 429 when the account or the address is over its limit. */
  async take(action: ThrottledAction, attempter: Attempter): Promise<AttemptTicket> {
    const config = this.context.config;
    const prefix = `THROTTLE_${action.toUpperCase()}` as const;
    const limits = {
      account: config[`${prefix}_PER_ACCOUNT` as keyof UsersConfig] as number,
      address: config[`${prefix}_PER_ADDRESS` as keyof UsersConfig] as number,
    };
    const window = fixedWindowAt(this.clock.now().getTime(), config.THROTTLE_WINDOW * 1_000);
    const scopes = ['account', 'address'] as const;
    const windowIds = scopes.map(
      (scope) => `${action}:${scope}:${digest(attempter[scope].toLowerCase())}:${window.start}`,
    );
    const taken = await Promise.all(
      windowIds.map((id, index) => this.counters.take(id, window.expiresAt, limits[scopes[index]!])),
    );
    if (taken.includes(false)) {
      this.throttled.add(1, { action });
      throw new TooManyRequestsException(TOO_MANY_ATTEMPTS_MESSAGE, window.retryAfterSeconds);
    }
    return { windowIds };
  }

  /** Gives an attempt back, e.g. a sign-in that succeeded (only failures should use up the limit). */
  async release(ticket: AttemptTicket): Promise<void> {
    await Promise.all(ticket.windowIds.map((id) => this.counters.decrement(id)));
  }

  async onModuleInit(): Promise<void> {
    await this.windows.init();
    this.counters.startSweeping(() => this.clock.now());
  }

  onModuleDestroy(): void {
    this.counters.stopSweeping();
  }
}
