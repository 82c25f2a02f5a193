import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { PassLoop, SERVICE_CONTEXT, type ServiceContext } from '@shop/service-kit';
import type { Model, Types } from 'mongoose';
import type { OrdersConfig } from '../config/orders.config';
import { ORDER_MODEL, type OrderRecord } from '../orders/order.schema';
import { CatalogStockClient } from './catalog-stock.client';
import { PENDING_RESERVATION_MODEL, type PendingReservationRecord } from './pending-reservation.schema';
import { WriteBatcher } from './write-batcher';

const BATCH = 100;

/**
 * Gives stock back to the catalogue until it confirms, for two kinds of reservation: those of
 * orders cancelled, or deleted before their payment was confirmed (`stockRelease: 'pending'`, written
 * with the cancellation or the delete), and those of checkouts that never stored their order (a `pending_reservations` entry
 * past its due time). Products releases a reservation once however often it is asked, and a
 * release that arrives before its reserve makes the late reserve take nothing, so retrying is
 * always safe.
 */
@Injectable()
export class StockReleasesService implements OnApplicationBootstrap, OnModuleDestroy {
  // Passes at STOCK_RELEASE_RETRY_MS, and right away when a checkout hurries a release.
  private readonly loop: PassLoop;
  // Checkouts finishing at the same time clear their records in one delete.
  private readonly cleared = new WriteBatcher<Types.ObjectId>('pending-clears', async (ids) => {
    await this.pending.deleteMany({ _id: { $in: ids } });
  });

  // Checkouts starting at the same time record their pending reservations in one command.
  private readonly expected = new WriteBatcher<{ orderId: Types.ObjectId; due: Date; now: Date }>(
    'pending-records',
    async (entries) => {
      await this.pending.bulkWrite(
        entries.map(({ orderId, due, now }) => ({
          updateOne: {
            filter: { _id: orderId },
            update: { $set: { due }, $setOnInsert: { attempts: 0, createdAt: now } },
            upsert: true,
          },
        })),
        { ordered: false },
      );
    },
  );

  constructor(
    @InjectModel(ORDER_MODEL) private readonly orders: Model<OrderRecord>,
    @InjectModel(PENDING_RESERVATION_MODEL) private readonly pending: Model<PendingReservationRecord>,
    private readonly stock: CatalogStockClient,
    @Inject(SERVICE_CONTEXT) private readonly context: ServiceContext<OrdersConfig>,
  ) {
    this.loop = new PassLoop({
      intervalMs: context.config.STOCK_RELEASE_RETRY_MS,
      pass: () => this.pass(),
      onError: (error) => context.logger.warn({ err: error }, 'stock release pass failed'),
    });
  }

  onApplicationBootstrap(): void {
    this.loop.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.loop.stop();
    await this.expected.flushed();
    await this.cleared.flushed();
  }

  /**
   * Records, before the reserve, that a reservation under `orderId` must be released unless its
   * order is stored by the answered time.
   */
  async expectOrder(orderId: Types.ObjectId): Promise<Date> {
    const now = new Date();
    const due = new Date(now.getTime() + this.context.config.CHECKOUT_RECOVERY_MS);
    await this.expected.add({ orderId, due, now });
    return due;
  }

  /** The order is stored: it owns the stock now. A failure here is harmless (the pass checks for the order). */
  async orderStored(orderId: Types.ObjectId): Promise<void> {
    await this.cleared
      .add(orderId)
      .catch((error: unknown) =>
        this.context.logger.warn(
          { err: error, orderId: orderId.toHexString() },
          'could not clear a pending reservation',
        ),
      );
  }

  /** The catalogue refused the reserve: nothing was taken, nothing to release. */
  async nothingReserved(orderId: Types.ObjectId): Promise<void> {
    await this.orderStored(orderId);
  }

  /**
   * The checkout failed after the reserve may have taken stock: release it now rather than at the
   * due time. If even this write fails, the entry written before the reserve still releases it.
   */
  async releaseSoon(orderId: Types.ObjectId): Promise<void> {
    try {
      await this.pending.updateOne({ _id: orderId }, { $set: { due: new Date() } });
      this.loop.nudge();
    } catch (error) {
      this.context.logger.warn(
        { err: error, reservationId: orderId.toHexString() },
        'could not hurry a stock release; it happens at its due time',
      );
    }
  }

  /**
   * Tries once, now, to give a cancelled or deleted order's stock back; answers whether the catalogue
   * confirmed. A failure is left to the periodic pass.
   */
  async releaseOrderStock(orderId: Types.ObjectId): Promise<boolean> {
    try {
      await this.stock.release(orderId.toHexString());
      await this.orders.updateOne(
        { _id: orderId, stockRelease: 'pending' },
        { $set: { stockRelease: 'done' } },
      );
      return true;
    } catch (error) {
      this.context.logger.warn(
        { err: error, orderId: orderId.toHexString() },
        'stock release failed, will retry',
      );
      return false;
    }
  }

  /** One sweep over both kinds of pending release; answers how many the catalogue confirmed. */
  async pass(): Promise<number> {
    let released = 0;
    const deleted = await this.orders
      .find({ stockRelease: 'pending' })
      .select('_id')
      .limit(BATCH)
      .lean<{ _id: Types.ObjectId }[]>();
    for (const { _id } of deleted) {
      if (this.loop.isStopped) return released;
      if (await this.releaseOrderStock(_id)) released += 1;
    }
    const due = await this.pending
      .find({ due: { $lte: new Date() } })
      .limit(BATCH)
      .lean<PendingReservationRecord[]>();
    for (const entry of due) {
      if (this.loop.isStopped) return released;
      if (await this.releaseOrphan(entry)) released += 1;
    }
    return released;
  }

  private async releaseOrphan(entry: PendingReservationRecord): Promise<boolean> {
    const reservationId = entry._id.toHexString();
    // The order was stored after all (its clean-up failed): it owns the stock.
    if (await this.orders.exists({ _id: entry._id })) {
      await this.pending.deleteOne({ _id: entry._id });
      return false;
    }
    try {
      const { released } = await this.stock.release(reservationId);
      if (released)
        this.context.logger.info({ reservationId }, 'released the stock of a checkout without order');
    } catch (error) {
      await this.pending.updateOne({ _id: entry._id }, { $inc: { attempts: 1 } });
      this.context.logger.warn(
        { err: error, reservationId, attempts: entry.attempts + 1 },
        'releasing the stock of a checkout without order failed, will retry',
      );
      return false;
    }
    await this.pending.deleteOne({ _id: entry._id, due: entry.due });
    return true;
  }
}
