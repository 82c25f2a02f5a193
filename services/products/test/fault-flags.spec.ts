import type { Product } from '@shop/contracts';
import { FeatureFlags } from '@shop/service-kit';
import { flagSetFile } from '@shop/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ProductsHarness, startProducts } from './support/products.harness';

// The catalogue's fault flag (docs/observability.md, "Fault flags"), read from a flag set file as
// FLAGS_SOURCE=file://… (the cluster syncs the same set from the data service).

const DELAY_MS = 3_000;
const flagFile = flagSetFile({ catalogReadDelay: { off: 0, slow: DELAY_MS } });

let products: ProductsHarness;
let flags: FeatureFlags;

beforeAll(async () => {
  products = await startProducts({ FLAGS_SOURCE: flagFile.source });
  flags = products.app.get(FeatureFlags);
});

afterAll(async () => {
  await products?.close();
  flagFile.remove();
});

/** A catalogue read through the gateway: its answer and how long it took. */
async function timedRead(slug: string): Promise<{ status: number; name: string; ms: number }> {
  const started = performance.now();
  const { status, body } = await products.call<Product>('GET', `/api/products/slug/${slug}`);
  return { status, name: body.name, ms: performance.now() - started };
}

describe('catalogReadDelay', () => {
  it('slows every catalogue read by its delay, answered from memory or not, and no longer once off', async () => {
    const product = await products.createProduct();
    // Read once while off: the second read below is answered from memory.
    expect((await timedRead(product.slug)).status).toBe(200);

    await flagFile.switchTo(flags, { catalogReadDelay: 'slow' });
    const slow = await timedRead(product.slug);
    expect(slow).toMatchObject({ status: 200, name: product.name });
    expect(slow.ms).toBeGreaterThanOrEqual(DELAY_MS);

    await flagFile.switchTo(flags, {});
    const again = await timedRead(product.slug);
    expect(again).toMatchObject({ status: 200, name: product.name });
    // The flag's delay is gone (a cached read takes milliseconds; the bound is the flag's own value).
    expect(again.ms).toBeLessThan(DELAY_MS);
  });
});
