import { describe, expect, it } from 'vitest';
import { WriteBatcher } from './write-batcher';

describe('WriteBatcher', () => {
  it('writes items handed in while a write is in flight together, and answers each once written', async () => {
    const writes: number[][] = [];
    const written = new Set<number>();
    let release!: () => void;
    const batcher = new WriteBatcher<number>('test', async (items) => {
      writes.push(items);
      if (writes.length === 1) await new Promise<void>((resolve) => (release = resolve));
      for (const item of items) written.add(item);
    });
    const answered: number[] = [];
    const all = [1, 2, 3, 4].map((n) =>
      batcher.add(n).then(() => {
        // Nobody is answered before their own item is written.
        expect(written.has(n)).toBe(true);
        answered.push(n);
      }),
    );
    await Promise.resolve();
    release();
    await Promise.all(all);
    expect(writes).toEqual([[1], [2, 3, 4]]);
    expect(answered.sort()).toEqual([1, 2, 3, 4]);
  });

  it('fails the callers of a failed write only', async () => {
    const batcher = new WriteBatcher<string>('test', async (items) => {
      if (items.includes('bad')) throw new Error('write failed');
    });
    const bad = batcher.add('bad');
    const good = bad.catch(() => undefined).then(() => batcher.add('good'));
    await expect(bad).rejects.toThrow('write failed');
    await expect(good).resolves.toBeUndefined();
  });
});
