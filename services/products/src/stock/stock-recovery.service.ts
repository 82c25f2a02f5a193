import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { PassLoop, SERVICE_CONTEXT, type ServiceContext } from '@shop/service-kit';
import type { Model } from 'mongoose';
import type { ProductsConfig } from '../config/products.config';
import { PRODUCT_MODEL, type ProductHold, type ProductRecord } from '../products/product.schema';
import { INTERRUPTED } from './reservation-refusals';
import { applyProductWrite, dropHold, giveBackStock, strayHoldAction } from './stock-holds';
import { StockReleasingService } from './stock-releasing.service';
import { STOCK_RESERVATION_MODEL, type StockReservationRecord } from './stock-reservation.schema';

type Reservation = StockReservationRecord;
type HoldingProduct = { _id: unknown; holds: ProductHold[] };

/**
 * Finishes what a crash (or a stall longer than RESERVATION_STALE_AFTER_MS) left behind: pending
 * reservations fail, and whatever they, or failing and releasing ones, still hold is given back;
 * then holds that ended reservations left on products are settled. Every replica runs a pass at
 * start and then RESERVATION_RECOVERY_INTERVAL_MS after the last one ended.
 */
@Injectable()
export class StockRecoveryService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly passes: PassLoop;

  constructor(
    @InjectModel(PRODUCT_MODEL) private readonly products: Model<ProductRecord>,
    @InjectModel(STOCK_RESERVATION_MODEL) private readonly reservations: Model<Reservation>,
    private readonly releasing: StockReleasingService,
    @Inject(SERVICE_CONTEXT) private readonly context: ServiceContext<ProductsConfig>,
  ) {
    this.passes = new PassLoop({
      pass: () => this.recover(),
      intervalMs: context.config.RESERVATION_RECOVERY_INTERVAL_MS,
      onError: (error) => context.logger.warn({ err: error }, 'reservation recovery pass failed'),
    });
  }

  onApplicationBootstrap(): void {
    this.passes.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.passes.stop();
  }

  /** Answers how many reservations it finished plus how many stray holds it settled. */
  async recover(now = new Date()): Promise<number> {
    return (await this.finishStale(now)) + (await this.settleStrayHolds());
  }

  private async finishStale(now: Date): Promise<number> {
    const cutoff = new Date(now.getTime() - this.context.config.RESERVATION_STALE_AFTER_MS);
    const stale = await this.reservations
      .find({ state: { $in: ['pending', 'failing', 'releasing'] }, updatedAt: { $lt: cutoff } })
      .limit(100)
      .lean<Reservation[]>();
    let finished = 0;
    for (const reservation of stale) {
      // Claim it, so replicas running the pass at once do the work once (it is idempotent anyway).
      const claimed = await this.reservations.updateOne(
        { _id: reservation._id, state: reservation.state, updatedAt: reservation.updatedAt },
        { $set: { recoveredAt: now } },
      );
      if (claimed.modifiedCount === 0) continue;
      this.context.logger.warn(
        { reservationId: reservation._id, state: reservation.state },
        'finishing an interrupted stock reservation',
      );
      if (reservation.state === 'pending') {
        await this.releasing.settle(reservation._id, INTERRUPTED);
      } else {
        const current = await this.reservations.findById(reservation._id).lean<Reservation>();
        if (current) await this.releasing.finish(current);
      }
      finished += 1;
    }
    return finished;
  }

  /**
   * A reserve that stalled past its take-over can still take a line after the recovery gave the
   * reservation's holds back; it gives that line back itself, unless it dies first. Such a hold, or
   * one a crash left on a sold reservation, is found here on the product and settled by the
   * reservation's final state (`strayHoldAction`); both writes happen once whoever sends them.
   */
  private async settleStrayHolds(): Promise<number> {
    let settled = 0;
    const holding = this.products
      .find({ 'holds.0': { $exists: true } })
      .select('holds')
      .lean<HoldingProduct[]>()
      .cursor();
    for await (const product of holding) {
      const productId = String(product._id);
      const ids = [...new Set(product.holds.map((hold) => hold.id))];
      const states = new Map(
        (
          await this.reservations
            .find({ _id: { $in: ids } })
            .select('state')
            .lean<Reservation[]>()
        ).map((reservation) => [reservation._id, reservation.state]),
      );
      for (const hold of product.holds) {
        const action = strayHoldAction(states.get(hold.id));
        if (action === 'keep') continue;
        const write =
          action === 'drop'
            ? dropHold(hold.id, productId)
            : giveBackStock(hold.id, { productId, quantity: hold.quantity });
        if (await applyProductWrite(this.products, write)) {
          settled += 1;
          this.context.logger.warn(
            { reservationId: hold.id, productId, quantity: hold.quantity, action },
            'settled a stock hold an interrupted reservation left behind',
          );
        }
      }
    }
    return settled;
  }
}
