import { mongoUrlFor, uniqueDbName } from '@shop/testing';
import mongoose, { type Connection, Schema } from 'mongoose';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { findPage, pageWindow } from '../src/mongo/find-page';

interface Item {
  n: number;
  even: boolean;
  secret: string;
}

let db: Connection;
let items: mongoose.Model<Item>;

beforeAll(async () => {
  db = await mongoose
    .createConnection(mongoUrlFor(inject('mongoUrl'), uniqueDbName('find-page')))
    .asPromise();
  items = db.model<Item>('Item', new Schema<Item>({ n: Number, even: Boolean, secret: String }));
  await items.insertMany(Array.from({ length: 7 }, (_, n) => ({ n, even: n % 2 === 0, secret: 'x' })));
});

afterAll(async () => {
  await db?.close();
});

const numbers = (docs: { n: number }[]) => docs.map((doc) => doc.n);

describe('pageWindow', () => {
  it('skips the pages before page `page` (from 1, the first when absent)', () => {
    expect(pageWindow(undefined, 20)).toEqual({ skip: 0, limit: 20 });
    expect(pageWindow(1, 20)).toEqual({ skip: 0, limit: 20 });
    expect(pageWindow(3, 20)).toEqual({ skip: 40, limit: 20 });
  });
});

describe('findPage', () => {
  it('reads one page of the matches in order, with how many match in all', async () => {
    const page = await findPage(
      items,
      { even: true },
      { select: 'n', sort: { n: -1 }, page: pageWindow(2, 3) },
    );
    expect(numbers(page.docs)).toEqual([0]);
    expect(page.total).toBe(4);
    const first = await findPage(items, {}, { select: 'n', sort: { n: 1 }, page: pageWindow(1, 3) });
    expect({ n: numbers(first.docs), total: first.total }).toEqual({ n: [0, 1, 2], total: 7 });
  });

  it('reads every match without a page, only the selected fields, as plain objects', async () => {
    const all = await findPage(items, { even: false }, { select: 'n', sort: { n: 1 } });
    expect(all.docs).toEqual([1, 3, 5].map((n) => ({ _id: expect.anything(), n })));
    expect(all.docs[0]).not.toBeInstanceOf(mongoose.Document);
    expect(all.total).toBe(3);
  });
});
