import { describe, expect, it } from 'vitest';
import { mongoUrlFor, uniqueDbName } from './database-names.util.js';

describe('uniqueDbName', () => {
  it('gives a different, MongoDB-safe name on every call', () => {
    const names = new Set(Array.from({ length: 100 }, () => uniqueDbName('orders service/it')));
    expect(names.size).toBe(100);
    for (const name of names) {
      expect(name).toMatch(/^orders_service_it_[a-z0-9]+_[0-9a-f]{6}$/);
      expect(name.length).toBeLessThan(64);
    }
  });
});

describe('mongoUrlFor', () => {
  it('puts the database into the path and keeps credentials and options', () => {
    expect(mongoUrlFor('mongodb://127.0.0.1:27018', 'shop')).toBe('mongodb://127.0.0.1:27018/shop');
    expect(mongoUrlFor('mongodb://u:p%40ss@h1:1,h2:2/old?authSource=admin', 'orders_1')).toBe(
      'mongodb://u:p%40ss@h1:1,h2:2/orders_1?authSource=admin',
    );
  });
});
