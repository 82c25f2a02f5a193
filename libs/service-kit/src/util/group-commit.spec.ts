import { describe, expect, it } from 'vitest';
import { GroupCommit, insertEach, writeAlone } from './group-commit';

describe('GroupCommit', () => {
  it('writes the items handed in during a write together, and answers each with its own outcome', async () => {
    const batches: number[][] = [];
    let release!: () => void;
    const commit = new GroupCommit<number, number>(async (items, answer) => {
      batches.push(items);
      if (batches.length === 1) await new Promise<void>((resolve) => (release = resolve));
      items.forEach((item, index) =>
        answer(index, item % 2 === 0 ? item * 10 : Promise.reject(new Error(`odd ${item}`))),
      );
    });
    const outcomes = Promise.allSettled([1, 2, 3, 4].map((n) => commit.add(n)));
    await Promise.resolve();
    release();
    const settled = await outcomes;
    expect(batches).toEqual([[1], [2, 3, 4]]);
    expect(settled.map((s) => (s.status === 'fulfilled' ? s.value : (s.reason as Error).message))).toEqual([
      'odd 1',
      20,
      'odd 3',
      40,
    ]);
  });

  it('fails the items a batch left unanswered, with the error it threw or a plain one', async () => {
    let release!: () => void;
    const commit = new GroupCommit<string, string>(async (items, answer) => {
      if (items[0] === 'gate') await new Promise<void>((resolve) => (release = resolve));
      answer(0, `${items[0]} answered`);
      if (items.includes('boom')) throw new Error('write failed');
    });
    const gate = commit.add('gate');
    const second = Promise.allSettled([commit.add('a'), commit.add('boom')]);
    release();
    expect(await gate).toBe('gate answered');
    const [a, boom] = await second;
    expect(a).toEqual({ status: 'fulfilled', value: 'a answered' });
    expect((boom as PromiseRejectedResult).reason).toEqual(new Error('write failed'));

    const silent = new GroupCommit<number, number>(async () => undefined);
    await expect(silent.add(1)).rejects.toThrow('the batch ended without answering this item');
  });

  it('never sends more than maxBatch items in one write', async () => {
    const sizes: number[] = [];
    const commit = new GroupCommit<number, void>(
      async (items, answer) => {
        sizes.push(items.length);
        items.forEach((_, index) => answer(index, undefined));
      },
      { maxBatch: 2 },
    );
    await Promise.all([1, 2, 3, 4, 5].map((n) => commit.add(n)));
    expect(sizes).toEqual([1, 2, 2]);
  });

  it('writes each item alone and at once in a queue switched off, and only in that one', async () => {
    writeAlone(['measured']);
    try {
      const written: Record<string, number[][]> = { measured: [], other: [] };
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      const queue = (name: string) =>
        new GroupCommit<number, number>(
          async (items, answer) => {
            written[name]!.push(items);
            await gate;
            items.forEach((item, index) => answer(index, item * 10));
          },
          { name },
        );
      const [measured, other] = [queue('measured'), queue('other')];
      const outcomes = Promise.all([1, 2, 3].flatMap((n) => [measured.add(n), other.add(n)]));
      // Every item of the switched-off queue is being written before any write ends; the other queue
      // still holds its later items for one batch.
      expect(written).toEqual({ measured: [[1], [2], [3]], other: [[1]] });
      let flushed = false;
      const flushing = measured.flushed().then(() => (flushed = true));
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(flushed, 'flushed() waits for the writes in flight').toBe(false);
      release();
      expect(await outcomes).toEqual([10, 10, 20, 20, 30, 30]);
      await flushing;
      expect(written.other).toEqual([[1], [2, 3]]);
    } finally {
      writeAlone([]);
    }
  });
});

describe('insertEach', () => {
  it('answers the error of each document that failed, by index', async () => {
    const duplicate = { index: 1, code: 11000 };
    const failed = await insertEach(
      {
        insertMany: async () => {
          throw Object.assign(new Error('E11000'), { writeErrors: [duplicate] });
        },
      },
      ['a', 'b', 'c'],
    );
    expect([...failed]).toEqual([[1, duplicate]]);
    expect(await insertEach({ insertMany: async () => ({}) }, ['a'])).toEqual(new Map());
  });

  it('throws an error that names no document', async () => {
    const down = new Error('connection closed');
    await expect(
      insertEach(
        {
          insertMany: async () => {
            throw down;
          },
        },
        ['a'],
      ),
    ).rejects.toBe(down);
  });
});
