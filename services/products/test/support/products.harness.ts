import { randomUUID } from 'node:crypto';
import type { Product, ProductInput } from '@shop/contracts';
import { type ServiceUnderTest, startServiceUnderTest } from '@shop/service-kit/testing';
import { type JsonAnswer, jsonCall } from '@shop/testing';
import { expect } from 'vitest';
import { AppModule } from '../../src/app.module';
import { type ProductsConfig, productsConfigSchema } from '../../src/config/products.config';

/** The products service under test; `command` sends a NATS command the way the orders service does. */
export type ProductsHarness = ServiceUnderTest<ProductsConfig>;

/**
 * The products service on a fresh database, behind the real gateway (kong.yml, rate limits as
 * configured), with a key pair of its own for admin and customer tokens, and no demo seed unless
 * `env` asks for it. `options.upstreams` routes other services' paths (say, media's) through the
 * same gateway; `options.events` are the event types to collect (`events`, `waitForEvent`).
 */
export function startProducts(
  env: Record<string, string> = {},
  options: { upstreams?: Record<string, string>; events?: string[] } = {},
): Promise<ProductsHarness> {
  return startServiceUnderTest({
    name: 'products',
    configSchema: productsConfigSchema,
    module: (context) => AppModule.register(context),
    env: { LOG_LEVEL: 'warn', SEED_DEMO_DATA: 'false', ...env },
    upstreams: options.upstreams,
    events: options.events,
  });
}

/** One JSON call through the gateway. */
export const api = <T = unknown>(
  harness: Pick<ProductsHarness, 'url'>,
  method: string,
  path: string,
  options: { token?: string; body?: unknown } = {},
): Promise<JsonAnswer<T>> => jsonCall<T>(harness.url, method, path, options);

/** A media URL of the shape the media service answers. */
export function mediaUrl(name = 'picture'): string {
  const id = Array.from({ length: 24 }, () => Math.floor(Math.random() * 16).toString(16)).join('');
  return `/api/media/${id}/${Date.now()}-${name}.png`;
}

/** Creates a product as an admin through the API (201), with test values for what `fields` leaves out. */
export async function createProduct(
  harness: Pick<ProductsHarness, 'url' | 'adminToken'>,
  fields: Partial<ProductInput> = {},
): Promise<Product> {
  const answer = await api<Product>(harness, 'POST', '/api/listings/create', {
    token: harness.adminToken,
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
}

/** The stock a product's public answer shows. */
export async function shownStock(harness: Pick<ProductsHarness, 'url'>, id: string): Promise<number> {
  return (await api<Product>(harness, 'GET', `/api/products/${id}`)).body.countInStock;
}
