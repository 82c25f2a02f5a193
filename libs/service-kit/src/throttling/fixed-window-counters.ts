import { type Model, Schema } from 'mongoose';
import type { Logger } from 'pino';
import { isDuplicateKey } from '../mongo/duplicate-key';

/** One counter of one fixed window, e.g. the sign-ins of one address in one quarter hour. */
export interface FixedWindowRecord {
  /** The caller's key for the counter; it should include the window's start. */
  _id: string;
  count: number;
  expiresAt: Date;
}

/** The schema of a collection of fixed-window counters (each service names its own collection). */
export function fixedWindowSchema(collection: string): Schema<FixedWindowRecord> {
  return new Schema<FixedWindowRecord>(
    {
      _id: { type: String, required: true },
      count: { type: Number, required: true, default: 0 },
      expiresAt: { type: Date, required: true, index: true },
    },
    { versionKey: false, collection },
  );
}

/** The fixed window `now` falls in: when it started, when it ends, and the seconds left (≥ 1). */
export function fixedWindowAt(
  nowMs: number,
  windowMs: number,
): { start: number; expiresAt: Date; retryAfterSeconds: number } {
  const start = Math.floor(nowMs / windowMs) * windowMs;
  return {
    start,
    expiresAt: new Date(start + windowMs),
    retryAfterSeconds: Math.max(1, Math.ceil((start + windowMs - nowMs) / 1_000)),
  };
}

/**
 * Counters in fixed windows stored in the service's database, so every replica shares them. Taking
 * is a conditional `$inc` (only while the count is below the limit): one atomic single-document
 * update, so parallel requests cannot slip past the limit, on MongoDB and on the embedded database
 * alike. (Reading the count back from `findOneAndUpdate` is not enough there: under concurrency the
 * embedded database can answer a later state, so several callers see the same number.) Ended
 * windows are swept every minute once `startSweeping` is called: the embedded database has no TTL
 * indexes.
 */
export class FixedWindowCounters {
  private sweeper?: NodeJS.Timeout;

  constructor(
    private readonly windows: Model<FixedWindowRecord>,
    private readonly logger: Logger,
  ) {}

  /**
   * Counts one more in window `id` (created on first use, ending at `expiresAt`) if it holds fewer
   * than `limit`; answers whether it did.
   */
  async take(id: string, expiresAt: Date, limit: number): Promise<boolean> {
    for (let attempt = 0; ; attempt += 1) {
      try {
        await this.windows.updateOne(
          { _id: id },
          { $setOnInsert: { count: 0, expiresAt } },
          { upsert: true },
        );
        break;
      } catch (error) {
        // Two first uses raced to insert the window: it exists now.
        if (!isDuplicateKey(error) || attempt >= 2) throw error;
      }
    }
    const taken = await this.windows.updateOne({ _id: id, count: { $lt: limit } }, { $inc: { count: 1 } });
    return taken.modifiedCount === 1;
  }

  /** Takes one back from window `id`, never below zero. */
  async decrement(id: string): Promise<void> {
    await this.windows.updateOne({ _id: id, count: { $gt: 0 } }, { $inc: { count: -1 } });
  }

  /** Sweeps ended windows every `intervalMs` until `stopSweeping`; `now` is the service's clock. */
  startSweeping(now: () => Date = () => new Date(), intervalMs = 60_000): void {
    clearInterval(this.sweeper);
    this.sweeper = setInterval(() => void this.sweep(now()), intervalMs);
    this.sweeper.unref();
  }

  stopSweeping(): void {
    clearInterval(this.sweeper);
  }

  /** Removes the windows that ended before `now`; answers how many (0 when the database is away). */
  async sweep(now: Date): Promise<number> {
    try {
      return (await this.windows.deleteMany({ expiresAt: { $lt: now } })).deletedCount;
    } catch (error) {
      this.logger.warn({ err: error, collection: this.windows.collection.name }, 'fixed window sweep failed');
      return 0;
    }
  }
}
