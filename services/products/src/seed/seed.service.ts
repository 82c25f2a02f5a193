import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { InjectConnection, InjectModel } from '@nestjs/mongoose';
import { SERVICE_CONTEXT, type ServiceContext } from '@shop/service-kit';
import type { Connection, Model } from 'mongoose';
import type { ProductsConfig } from '../config/products.config';
import { PRODUCT_MODEL, type ProductRecord } from '../products/product.schema';
import { DEMO_CATALOGUE } from './demo-catalogue';
import { DEMO_IMAGES_PATH, demoImageName } from './demo-image-names';

const SEED_ID = 'demo-catalogue-v1';

/**
 * Seeds the demo catalogue once per database. The marker is written after the products, so a crash
 * mid-way seeds again on the next start; products are upserted by slug, so replicas starting
 * together, or a second run, never duplicate anything. Products an admin deletes later stay deleted.
 */
@Injectable()
export class SeedService implements OnApplicationBootstrap {
  constructor(
    @InjectModel(PRODUCT_MODEL) private readonly products: Model<ProductRecord>,
    @InjectConnection() private readonly connection: Connection,
    @Inject(SERVICE_CONTEXT) private readonly context: ServiceContext<ProductsConfig>,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.context.config.SEED_DEMO_DATA) await this.seed();
  }

  /** Answers how many products were inserted. */
  async seed(): Promise<number> {
    const markers = this.connection.collection<{ _id: string; at: Date }>('seed_markers');
    if (await markers.findOne({ _id: SEED_ID })) return 0;
    let inserted = 0;
    const now = Date.now();
    for (const [
      index,
      { shape: _shape, accent: _accent, imageCount, ...product },
    ] of DEMO_CATALOGUE.entries()) {
      const image = Array.from(
        { length: imageCount },
        (_, i) => `${DEMO_IMAGES_PATH}/${demoImageName(product.slug, i)}`,
      );
      // One second apart, first entry newest, so the home page shows the catalogue in its written order.
      const createdAt = new Date(now - index * 1_000);
      const result = await this.products.updateOne(
        { slug: product.slug },
        { $setOnInsert: { ...product, image, createdAt, updatedAt: createdAt } },
        { upsert: true, timestamps: false },
      );
      inserted += result.upsertedCount;
    }
    await markers.updateOne({ _id: SEED_ID }, { $setOnInsert: { at: new Date() } }, { upsert: true });
    this.context.logger.info({ inserted }, 'demo catalogue seeded');
    return inserted;
  }
}
