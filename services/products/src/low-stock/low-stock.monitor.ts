import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { InjectConnection, InjectModel } from '@nestjs/mongoose';
import {
  DEFAULT_LOW_STOCK_THRESHOLD,
  LOW_STOCK_THRESHOLD_UPDATED,
  type EventEnvelope,
  type LowStockThresholdUpdatedEvent,
  PRODUCT_LOW_STOCK,
  type ProductLowStockEvent,
} from '@shop/contracts';
import {
  type ConsumerHandle,
  JetStreamEvents,
  OutboxRelayProvider,
  SERVICE_CONTEXT,
  type ServiceContext,
  newEvent,
} from '@shop/service-kit';
import type { Connection, Model } from 'mongoose';
import { type CatalogChange, onCatalogWrites } from '../catalog-cache';
import { PRODUCT_MODEL, type ProductRecord } from '../products/product.schema';
import { SITE_THRESHOLD_MODEL, type SiteThresholdRecord } from './site-threshold.schema';

/** The durable consumer, shared by every products replica, of the site's threshold. */
export const LOW_STOCK_THRESHOLD_CONSUMER = 'products-low-stock-threshold';

type Checked = Pick<ProductRecord, 'name' | 'countInStock' | 'lowStockThreshold' | 'lowStock'> & {
  _id: unknown;
};
const CHECKED_FIELDS = '_id name countInStock lowStockThreshold lowStock';

/**
 * Keeps each product's `lowStock` true exactly while its stock is at its threshold or below (its own, or
 * the site's default), and publishes `product.low-stock` once per crossing (docs/product/rules.md, "Low
 * stock"). It follows every write to products in this replica (catalog-writes.ts): a stock move checks
 * the products it touched, any other change (an admin's edit, a new product) and a new site default
 * check them all, and so does the start, which catches what a replica killed between a stock move and
 * its check left. A check is a compare-and-set on the stock, the flag and the threshold it read, with the
 * event in the same write: two replicas (or a check racing a stock move) cannot both flip the flag, so
 * a crossing is published once; one that lost re-reads the product.
 */
@Injectable()
export class LowStockMonitor implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly pending = new Set<string>();
  private everything = false;
  private working: Promise<void> | undefined;
  private stopListening?: () => void;
  private consumer?: ConsumerHandle;
  private siteDefault = DEFAULT_LOW_STOCK_THRESHOLD;

  constructor(
    @InjectModel(PRODUCT_MODEL) private readonly products: Model<ProductRecord>,
    @InjectModel(SITE_THRESHOLD_MODEL) private readonly siteThresholds: Model<SiteThresholdRecord>,
    @InjectConnection() private readonly connection: Connection,
    private readonly relay: OutboxRelayProvider,
    private readonly events: JetStreamEvents,
    @Inject(SERVICE_CONTEXT) private readonly context: ServiceContext,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.stopListening = onCatalogWrites(this.connection, (change) => this.changed(change));
    await this.readSiteDefault();
    this.consumer = await this.events.consume(
      LOW_STOCK_THRESHOLD_CONSUMER,
      [LOW_STOCK_THRESHOLD_UPDATED],
      (event) => this.thresholdUpdated(event),
    );
    this.changed({ kind: 'catalog' });
  }

  async onModuleDestroy(): Promise<void> {
    this.stopListening?.();
    await this.consumer?.stop();
    await this.working;
  }

  /** Settles once every check asked for so far is done (for tests and a graceful stop). */
  async settled(): Promise<void> {
    while (this.working) await this.working;
  }

  /** Checks one product now and settles once it is done: an admin's change answers with the flag it set. */
  async recheck(productId: string): Promise<void> {
    this.changed({ kind: 'stock', productIds: [productId] });
    await this.settled();
  }

  /** One `settings.low-stock-threshold.updated`: kept per settings record; the first record's is the default. */
  async thresholdUpdated(event: EventEnvelope): Promise<void> {
    if (event.type !== LOW_STOCK_THRESHOLD_UPDATED) return;
    const data = (event as LowStockThresholdUpdatedEvent).data as
      Partial<LowStockThresholdUpdatedEvent['data']> | undefined;
    if (typeof data?.settingsId !== 'string' || typeof data.lowStockThreshold !== 'number') return;
    await this.siteThresholds.updateOne(
      { _id: data.settingsId },
      { $set: { lowStockThreshold: data.lowStockThreshold, occurredAt: event.occurredAt } },
      { upsert: true },
    );
    await this.readSiteDefault();
    this.changed({ kind: 'catalog' });
  }

  private async readSiteDefault(): Promise<void> {
    // The storefront uses the oldest settings record (docs/product/data.md): its threshold is the default.
    const first = await this.siteThresholds.findOne().sort({ _id: 1 }).lean<SiteThresholdRecord>();
    this.siteDefault = first?.lowStockThreshold ?? DEFAULT_LOW_STOCK_THRESHOLD;
  }

  private changed(change: CatalogChange): void {
    if (change.kind === 'catalog') this.everything = true;
    else for (const id of change.productIds) this.pending.add(id);
    this.kick();
  }

  private kick(): void {
    this.working ??= this.work().finally(() => {
      this.working = undefined;
      // A change heard after the loop's last look and before this: it would otherwise wait for the next.
      if (this.everything || this.pending.size > 0) this.kick();
    });
  }

  private async work(): Promise<void> {
    while (this.everything || this.pending.size > 0) {
      const all = this.everything;
      const ids = [...this.pending];
      this.everything = false;
      this.pending.clear();
      try {
        const products = await this.products
          .find({ deletedAt: null, ...(all ? {} : { _id: { $in: ids } }) })
          .select(CHECKED_FIELDS)
          .lean<Checked[]>();
        for (const product of products) await this.check(product);
      } catch (error) {
        // The next write checks again; a replica's start checks everything.
        this.context.logger.warn({ err: error }, 'low-stock check failed');
      }
    }
  }

  private async check(product: Checked): Promise<void> {
    const threshold = product.lowStockThreshold ?? this.siteDefault;
    const low = product.countInStock <= threshold;
    if (low === (product.lowStock ?? false)) return;
    const productId = String(product._id);
    const event: ProductLowStockEvent | undefined = low
      ? newEvent(PRODUCT_LOW_STOCK, {
          productId,
          name: product.name,
          countInStock: product.countInStock,
          threshold,
        })
      : undefined;
    const flipped = await this.relay.updateWithEvent(
      this.products,
      {
        _id: productId,
        deletedAt: null,
        countInStock: product.countInStock,
        lowStockThreshold: product.lowStockThreshold ?? null,
        lowStock: product.lowStock ? true : { $ne: true },
      },
      { $set: { lowStock: low } },
      event,
      { projection: '_id', timestamps: false },
    );
    // Changed meanwhile: that write asked for its own check, which reads it again.
    if (!flipped) this.pending.add(productId);
  }
}
