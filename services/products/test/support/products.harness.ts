import { randomUUID } from 'node:crypto';
import {
  PRODUCTS_RELEASE,
  PRODUCTS_RESERVE,
  type Product,
  type ProductInput,
  type ReleaseStockReply,
  type ReserveStockReply,
  type ReserveStockRequest,
} from '@shop/contracts';
import { type ServiceUnderTest, startServiceUnderTest } from '@shop/service-kit/testing';
import { Types } from 'mongoose';
import { expect } from 'vitest';
import { AppModule } from '../../src/app.module';
import { type ProductsConfig, productsConfigSchema } from '../../src/config/products.config';
import type { ProductHold } from '../../src/products/product.schema';

/**
 * The products service under test (`call` through the gateway, `command` as the orders service sends
 * one, `close`), with the catalogue's own steps besides.
 */
export interface ProductsHarness extends ServiceUnderTest<ProductsConfig> {
  /** Creates a product as an admin through the API (201), with test values for what `fields` leaves out. */
  createProduct(fields?: Partial<ProductInput>): Promise<Product>;
  /**
   * A product of the stock tests, in category 'Stock', with two pictures (a reserve's answer shows it
   * picks the first).
   */
  productInStock(countInStock: number, price?: number): Promise<Product>;
  /** The stock a product's public answer shows. */
  stockOf(productId: string): Promise<number>;
  /** `products.reserve` as the orders service sends it at checkout; a refusal rejects (`refusalOf`). */
  reserve(request: ReserveStockRequest): Promise<ReserveStockReply>;
  /** `products.release` as the orders service sends it. */
  release(reservationId: string): Promise<ReleaseStockReply>;
  /** The holds on a product, as stored (the API never shows them). */
  holdsOf(productId: string): Promise<ProductHold[]>;
}

/**
 * The products service on a fresh database, behind the real gateway (kong.yml, rate limits as
 * configured), with a key pair of its own for admin and customer tokens, and no demo seed unless
 * `env` asks for it. `options.upstreams` routes other services' paths (say, media's) through the
 * same gateway; `options.events` are the event types to collect (`events`, `waitForEvent`).
 */
export async function startProducts(
  env: Record<string, string> = {},
  options: { upstreams?: Record<string, string>; events?: string[] } = {},
): Promise<ProductsHarness> {
  const service = await startServiceUnderTest({
    name: 'products',
    configSchema: productsConfigSchema,
    module: (context) => AppModule.register(context),
    env: { LOG_LEVEL: 'warn', SEED_DEMO_DATA: 'false', ...env },
    upstreams: options.upstreams,
    events: options.events,
  });
  const createProduct = async (fields: Partial<ProductInput> = {}): Promise<Product> => {
    const answer = await service.call<Product>('POST', '/api/listings/create', {
      token: service.adminToken,
      body: {
        name: `Product ${randomUUID()}`,
        image: [mediaUrl('first')],
        category: 'Test',
        brand: 'Acme',
        price: 10,
        countInStock: 5,
        description: 'A product of the tests.',
        ...fields,
      },
    });
    expect(answer.status).toBe(201);
    return answer.body;
  };
  return {
    ...service,
    createProduct,
    productInStock: (countInStock, price = 10) =>
      createProduct({
        countInStock,
        price,
        category: 'Stock',
        image: [mediaUrl('first'), mediaUrl('second')],
      }),
    async stockOf(productId) {
      return (await service.call<Product>('GET', `/api/products/${productId}`)).body.countInStock;
    },
    reserve: (request) => service.command<ReserveStockReply>(PRODUCTS_RESERVE, request),
    release: (reservationId) => service.command<ReleaseStockReply>(PRODUCTS_RELEASE, { reservationId }),
    async holdsOf(productId) {
      const doc = await service.db
        .collection<{ holds?: ProductHold[] }>('products')
        .findOne({ _id: new Types.ObjectId(productId) as never }, { projection: { holds: 1 } });
      return doc?.holds ?? [];
    },
  };
}

/** A media URL of the shape the media service answers. */
export function mediaUrl(name = 'picture'): string {
  const id = Array.from({ length: 24 }, () => Math.floor(Math.random() * 16).toString(16)).join('');
  return `/api/media/${id}/${Date.now()}-${name}.png`;
}

/** A new id for a reservation, an order or a product that does not exist. */
export const newId = (): string => new Types.ObjectId().toHexString();
