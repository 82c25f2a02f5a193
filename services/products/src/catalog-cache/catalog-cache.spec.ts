import { Types } from 'mongoose';
import { describe, expect, it } from 'vitest';
import { CatalogCache, encodedBody, makeAnswer } from './catalog-cache';
import { chooseEncoding, matchesEtag } from './catalog-http';
import { classifyBulkWrite, classifyUpdate } from './catalog-writes';

const answer = (json: string, productIds: string[] = []) => makeAnswer(Buffer.from(json), {}, productIds);

function cache(limits: Partial<{ maxEntries: number; maxBytes: number; maxAgeMs: number }> = {}) {
  let now = 0;
  const store = new CatalogCache(
    { maxEntries: 100, maxBytes: 1_000_000, maxAgeMs: 60_000, ...limits },
    () => now,
  );
  store.setEnabled(true);
  return { store, advance: (ms: number) => (now += ms) };
}

describe('CatalogCache', () => {
  it('keeps no more answers than allowed, dropping the least recently used', () => {
    const { store } = cache({ maxEntries: 2 });
    store.store('/a', answer('"a"'), store.generation);
    store.store('/b', answer('"b"'), store.generation);
    store.get('/a');
    store.store('/c', answer('"c"'), store.generation);
    expect(store.get('/b')).toBeUndefined();
    expect(store.get('/a')?.body.toString()).toBe('"a"');
    expect(store.size).toBe(2);
  });

  it('keeps no more bytes than allowed, compressed forms included', () => {
    const { store } = cache({ maxBytes: 4_000 });
    const big = answer(JSON.stringify('x'.repeat(900)));
    store.store('/big', big, store.generation);
    store.grew('/big', big, encodedBody(big, 'gzip').length);
    for (let i = 0; i < 6; i += 1)
      store.store(`/other-${i}`, answer(JSON.stringify(`${i}`.repeat(600))), store.generation);
    expect(store.sizeInBytes).toBeLessThanOrEqual(4_000);
    expect(store.get('/big')).toBeUndefined();
    expect(store.get('/other-5')).toBeDefined();
  });

  it('refuses a fill that began before a change', () => {
    const { store } = cache();
    const before = store.generation;
    store.dropProducts(['p1']);
    expect(store.store('/products/p1', answer('{}', ['p1']), before)).toBe(false);
    expect(store.get('/products/p1')).toBeUndefined();
  });

  it('drops on a stock change only the answers showing that product', () => {
    const { store } = cache();
    store.store('/products/p1', answer('{}', ['p1']), store.generation);
    store.store('/products?page=1', answer('[]', ['p1', 'p2']), store.generation);
    store.store('/products/p2', answer('{}', ['p2']), store.generation);
    store.store('/categories', answer('[]'), store.generation);
    store.dropProducts(['p1']);
    expect(store.get('/products/p1')).toBeUndefined();
    expect(store.get('/products?page=1')).toBeUndefined();
    expect(store.get('/products/p2')).toBeDefined();
    expect(store.get('/categories')).toBeDefined();
  });

  it('forgets answers older than the backstop age', () => {
    const { store, advance } = cache({ maxAgeMs: 1_000 });
    store.store('/a', answer('"a"'), store.generation);
    advance(1_001);
    expect(store.get('/a')).toBeUndefined();
  });

  it('keeps nothing while disabled', () => {
    const { store } = cache();
    store.store('/a', answer('"a"'), store.generation);
    store.setEnabled(false);
    expect(store.get('/a')).toBeUndefined();
    expect(store.store('/a', answer('"a"'), store.generation)).toBe(false);
  });

  it('compresses an answer once and gives the same bytes after', () => {
    const kept = answer(JSON.stringify('y'.repeat(5_000)));
    const first = encodedBody(kept, 'br');
    expect(encodedBody(kept, 'br')).toBe(first);
    expect(first.length).toBeLessThan(kept.body.length);
  });
});

describe('classifyUpdate', () => {
  const id = new Types.ObjectId();

  it('sees nothing in outbox, hold and timestamp changes', () => {
    expect(classifyUpdate({ _id: id }, { $pull: { outbox: { id: 'e' } } })).toBeNull();
    expect(classifyUpdate({ _id: id }, { $pull: { holds: { id: 'r' } }, $set: { updatedAt: 1 } })).toBeNull();
  });

  it('sees a stock change of the filtered products', () => {
    expect(classifyUpdate({ _id: String(id) }, { $inc: { countInStock: -1 }, $push: { holds: {} } })).toEqual(
      {
        kind: 'stock',
        productIds: [String(id)],
      },
    );
    expect(classifyUpdate({ _id: { $in: [id] } }, { $inc: { countInStock: 1 } })).toEqual({
      kind: 'stock',
      productIds: [String(id)],
    });
  });

  it('sees a catalog change in anything else, or a stock change it cannot pin to products', () => {
    expect(classifyUpdate({ _id: id }, { $set: { price: 3 } })).toEqual({ kind: 'catalog' });
    // The low-stock flag changes which products a list filtered by it holds.
    expect(classifyUpdate({ _id: id }, { $set: { lowStock: true } })).toEqual({ kind: 'catalog' });
    expect(classifyUpdate({ _id: id }, { name: 'replaced' })).toEqual({ kind: 'catalog' });
    expect(classifyUpdate({ category: 'x' }, { $inc: { countInStock: 1 } })).toEqual({ kind: 'catalog' });
  });
});

describe('classifyBulkWrite', () => {
  const [a, b] = [new Types.ObjectId(), new Types.ObjectId()];
  const take = (id: Types.ObjectId) => ({
    updateOne: { filter: { _id: id, countInStock: { $gte: 1 } }, update: { $inc: { countInStock: -1 } } },
  });

  it('sees the stock change of every product its updates pin, once each', () => {
    expect(classifyBulkWrite([take(a), take(b), take(a)])).toEqual({
      kind: 'stock',
      productIds: [String(a), String(b)],
    });
    const dropHold = { updateOne: { filter: { _id: a }, update: { $pull: { holds: { id: 'r' } } } } };
    expect(classifyBulkWrite([dropHold as never])).toBeNull();
  });

  it('sees a catalog change as soon as one operation may change more', () => {
    const edit = { updateOne: { filter: { _id: b }, update: { $set: { price: 2 } } } };
    expect(classifyBulkWrite([take(a), edit])).toEqual({ kind: 'catalog' });
    expect(classifyBulkWrite([take(a), { deleteOne: { filter: { _id: b } } }])).toEqual({ kind: 'catalog' });
  });
});

describe('HTTP validators and encodings', () => {
  it('matches If-None-Match weakly, in a list, or *', () => {
    expect(matchesEtag('W/"1-abc"', 'W/"1-abc"')).toBe(true);
    expect(matchesEtag('"1-abc"', 'W/"1-abc"')).toBe(true);
    expect(matchesEtag('"x", W/"1-abc"', 'W/"1-abc"')).toBe(true);
    expect(matchesEtag('*', 'W/"1-abc"')).toBe(true);
    expect(matchesEtag('W/"1-abd"', 'W/"1-abc"')).toBe(false);
    expect(matchesEtag(undefined, 'W/"1-abc"')).toBe(false);
  });

  it('prefers brotli, then gzip, never a refused one, and leaves small bodies alone', () => {
    expect(chooseEncoding('gzip, deflate, br', 5_000)).toBe('br');
    expect(chooseEncoding('gzip, br;q=0', 5_000)).toBe('gzip');
    expect(chooseEncoding('identity', 5_000)).toBe('identity');
    expect(chooseEncoding('*', 5_000)).toBe('br');
    expect(chooseEncoding('br', 100)).toBe('identity');
    expect(chooseEncoding(undefined, 5_000)).toBe('identity');
    // The client's preference counts before ours.
    expect(chooseEncoding('gzip;q=1, br;q=0.5', 5_000)).toBe('gzip');
    expect(chooseEncoding('compress', 5_000)).toBe('identity');
  });
});
