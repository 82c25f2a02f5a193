import { createHash } from 'node:crypto';
import {
  BadRequestException,
  Inject,
  Injectable,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
  UnprocessableEntityException,
} from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { ORDER_LIMITS, type ShippingAddress, type StockRequestItem } from '@shop/contracts';
import {
  GroupCommit,
  SERVICE_CONTEXT,
  type ServiceContext,
  insertEach,
  isDuplicateKey,
} from '@shop/service-kit';
import { type Model, Types, type mongo } from 'mongoose';
import type { OrdersConfig } from '../config/orders.config';
import { IDEMPOTENCY_KEY_MODEL, type IdempotencyKeyRecord } from './idempotency-key.schema';

const SWEEP_INTERVAL_MS = 60 * 60_000;
const KEY_PATTERN = new RegExp(`^[\\x21-\\x7e]{1,${ORDER_LIMITS.idempotencyKey}}$`);

/** What a claimed key stands for: a new order id to place, or an order placed (or being placed) before. */
export interface ClaimedKey {
  keyId: string;
  orderId: Types.ObjectId;
  /** True when this request is the first with the key. */
  fresh: boolean;
  claimedAt: Date;
}

/** Validates an `Idempotency-Key` header: absent, or 1–128 visible ASCII characters. */
export function parseIdempotencyKey(header: unknown): string | undefined {
  if (header === undefined) return undefined;
  if (typeof header !== 'string' || !KEY_PATTERN.test(header)) {
    throw new BadRequestException(
      `Idempotency-Key must be 1 to ${ORDER_LIMITS.idempotencyKey} visible ASCII characters`,
    );
  }
  return header;
}

/** A stable digest of what an order request asks for, so a retry can be told from a different request. */
export function requestFingerprint(
  items: StockRequestItem[],
  shippingAddress: ShippingAddress,
  paymentMethod: string,
): string {
  const { fullName, address, city, country, phoneNumber } = shippingAddress;
  const canonical = JSON.stringify({
    items: [...items]
      .sort((a, b) => a.productId.localeCompare(b.productId))
      .map((i) => [i.productId, i.quantity]),
    shippingAddress: [fullName, address, city, country, phoneNumber],
    paymentMethod,
  });
  return createHash('sha256').update(canonical).digest('hex');
}

/**
 * The customers' idempotency keys (`idempotency_keys`, `_id = <userId>:<key>`). Claiming a key is
 * an insert, so of two concurrent requests with the same key exactly one is first; the order id is
 * chosen with the key, so every retry works on the same order and the same stock reservation.
 */
@Injectable()
export class IdempotencyKeysService implements OnApplicationBootstrap, OnModuleDestroy {
  private timer?: NodeJS.Timeout;
  // Checkouts claiming their keys at the same time insert them in one command (docs/performance.md);
  // each still learns on its own whether its key was new (true) or taken (false).
  private readonly inserts = new GroupCommit<IdempotencyKeyRecord, boolean>(
    async (records, answer) => {
      // The driver's collection, typed with our string ids.
      const collection = this.keys.collection as unknown as mongo.Collection<IdempotencyKeyRecord>;
      const failed = await insertEach(collection, records);
      records.forEach((_, index) => {
        const error = failed.get(index);
        if (error === undefined) answer(index, true);
        else if (isDuplicateKey(error)) answer(index, false);
        else answer(index, Promise.reject(error as Error));
      });
    },
    { name: 'idempotency-keys' },
  );

  constructor(
    @InjectModel(IDEMPOTENCY_KEY_MODEL) private readonly keys: Model<IdempotencyKeyRecord>,
    @Inject(SERVICE_CONTEXT) private readonly context: ServiceContext<OrdersConfig>,
  ) {}

  onApplicationBootstrap(): void {
    // No TTL indexes on the embedded database: expired keys are swept instead.
    this.timer = setInterval(() => void this.sweep(), SWEEP_INTERVAL_MS);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.timer);
    await this.inserts.flushed();
  }

  private get ttlMs(): number {
    return this.context.config.IDEMPOTENCY_KEY_TTL_HOURS * 3_600_000;
  }

  /**
   * Claims `key` for `userId`: the first request gets a fresh order id; a retry with the same
   * request gets the id chosen the first time; a different request under the same key is a 422.
   */
  async claim(userId: string, key: string, fingerprint: string): Promise<ClaimedKey> {
    const keyId = `${userId}:${key}`;
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const claimedAt = new Date();
      const orderId = new Types.ObjectId();
      if (await this.inserts.add({ _id: keyId, orderId, fingerprint, createdAt: claimedAt })) {
        return { keyId, orderId, fresh: true, claimedAt };
      }
      const existing = await this.keys.findById(keyId).lean<IdempotencyKeyRecord>();
      if (!existing) continue; // released by a failed first request meanwhile: claim it again
      if (existing.createdAt.getTime() < Date.now() - this.ttlMs) {
        await this.keys.deleteOne({ _id: keyId, createdAt: existing.createdAt });
        continue;
      }
      if (existing.fingerprint !== fingerprint) {
        throw new UnprocessableEntityException('This Idempotency-Key was already used for a different order');
      }
      return { keyId, orderId: existing.orderId, fresh: false, claimedAt: existing.createdAt };
    }
    throw new UnprocessableEntityException('This Idempotency-Key is in use by another request, please retry');
  }

  /** Frees a key whose request failed, so a retry starts over with a new order id. */
  async forget(claim: ClaimedKey): Promise<void> {
    await this.keys.deleteOne({ _id: claim.keyId, orderId: claim.orderId });
  }

  /** Removes keys older than `IDEMPOTENCY_KEY_TTL_HOURS`; answers how many. */
  async sweep(): Promise<number> {
    try {
      const result = await this.keys.deleteMany({ createdAt: { $lt: new Date(Date.now() - this.ttlMs) } });
      return result.deletedCount;
    } catch (error) {
      this.context.logger.warn({ err: error }, 'sweeping expired idempotency keys failed');
      return 0;
    }
  }
}
