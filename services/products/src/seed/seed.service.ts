import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { InjectConnection, InjectModel } from '@nestjs/mongoose';
import { SERVICE_CONTEXT, type ServiceContext } from '@shop/service-kit';
import type { Connection, Model } from 'mongoose';
import type { ProductsConfig } from '../config/products.config';
import { PRODUCT_MODEL, type ProductRecord } from '../products/product.schema';
import { DEMO_CATALOG, type DemoProduct } from './demo-catalog';
import { renderDemoImage } from './demo-images';
import { SeedImageStore } from './seed-image.store';

// v1 (decision 0004, pictures on a route of this service) is no longer migrated: decision 0018.
const SEED_ID = 'demo-catalogue-v2';

/** The seed key of a demo picture: media answers the same URL for the same key. */
export function demoImageKey(slug: string, index: number): string {
  return `demo-${slug}-${index + 1}`;
}

/**
 * Seeds the demo catalogue once per database, its pictures drawn here and stored through the media
 * service. The marker is written after the products, so a crash mid-way seeds again on the next
 * start; products are upserted by slug and media stores each picture once per key, so replicas
 * starting together, or a second run, never duplicate anything. Products an admin deletes later
 * stay deleted.
 */
@Injectable()
export class SeedService implements OnApplicationBootstrap {
  constructor(
    @InjectModel(PRODUCT_MODEL) private readonly products: Model<ProductRecord>,
    @InjectConnection() private readonly connection: Connection,
    @Inject(SERVICE_CONTEXT) private readonly context: ServiceContext<ProductsConfig>,
    private readonly images: SeedImageStore,
  ) {}

  /** Runs before the service listens, so it is ready only with its pictures in place. */
  async onApplicationBootstrap(): Promise<void> {
    if (!this.context.config.SEED_DEMO_DATA) return;
    try {
      await this.seed();
    } catch (error) {
      // A demo feature must not keep the shop down: the next start tries again.
      this.context.logger.error(
        { err: error },
        'demo catalogue not seeded; it is tried again on the next start',
      );
    }
  }

  /** Answers how many products were inserted. */
  async seed(): Promise<number> {
    const markers = this.connection.collection<{ _id: string; at: Date }>('seed_markers');
    if (await markers.findOne({ _id: SEED_ID })) return 0;
    const deadline = Date.now() + this.context.config.SEED_MEDIA_WAIT_MS;
    let inserted = 0;
    const now = Date.now();
    for (const [index, demo] of DEMO_CATALOG.entries()) {
      const { shape: _shape, accent: _accent, imageCount: _count, ...product } = demo;
      const image = await this.storeImages(demo, deadline);
      // One second apart, first entry newest, so the home page shows the catalogue in its written order.
      const createdAt = new Date(now - index * 1_000);
      const result = await this.products.updateOne(
        { slug: product.slug },
        { $setOnInsert: { ...product, image, deletedAt: null, createdAt, updatedAt: createdAt } },
        { upsert: true, timestamps: false },
      );
      inserted += result.upsertedCount;
    }
    await markers.updateOne({ _id: SEED_ID }, { $setOnInsert: { at: new Date() } }, { upsert: true });
    this.context.logger.info({ inserted }, 'demo catalogue seeded');
    return inserted;
  }

  private async storeImages(demo: DemoProduct, deadline: number): Promise<string[]> {
    const urls: string[] = [];
    for (let i = 0; i < demo.imageCount; i += 1) {
      const png = renderDemoImage(demo.shape, demo.accent, i);
      urls.push(
        await this.images.store(
          {
            seedKey: demoImageKey(demo.slug, i),
            fileName: `${demo.slug}-${i + 1}.png`,
            contentBase64: png.toString('base64'),
          },
          deadline,
        ),
      );
    }
    return urls;
  }
}
