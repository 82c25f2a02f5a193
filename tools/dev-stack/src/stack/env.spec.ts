import { describe, expect, it } from 'vitest';
import { natsClusterFromEnv, replicasFromEnv } from './env.js';

describe('SHOP_REPLICAS', () => {
  it('names copies of services; the others run once', () => {
    expect(replicasFromEnv({})).toEqual({});
    expect(replicasFromEnv({ SHOP_REPLICAS: 'products=2, orders=3' })).toEqual({ products: 2, orders: 3 });
  });

  it('refuses an unknown service or a count that is not 1 to 10, naming the variable', () => {
    expect(() => replicasFromEnv({ SHOP_REPLICAS: 'product=2' })).toThrow(
      /SHOP_REPLICAS=.*"product=2" names no service/,
    );
    expect(() => replicasFromEnv({ SHOP_REPLICAS: 'products' })).toThrow(/count of products/);
    for (const count of ['0', '1.5', '11', 'two']) {
      expect(() => replicasFromEnv({ SHOP_REPLICAS: `orders=${count}` }), count).toThrow(/count of orders/);
    }
  });
});

describe('SHOP_NATS_CLUSTER', () => {
  it('is one plain server unless it names 1 to 5 nodes', () => {
    expect(natsClusterFromEnv({})).toBe(1);
    expect(natsClusterFromEnv({ SHOP_NATS_CLUSTER: '3' })).toBe(3);
    for (const size of ['0', '6', 'three']) {
      expect(() => natsClusterFromEnv({ SHOP_NATS_CLUSTER: size }), size).toThrow(/SHOP_NATS_CLUSTER=/);
    }
  });
});
