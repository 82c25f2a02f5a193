import { NEW_ORDER_STATE, type Order, type Product } from '@shop/contracts';
import { Types } from 'mongoose';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPORT_HEADER } from '../src/orders/order-export';
import { type OrdersHarness, ADDRESS, orderBody, startOrdersHarness } from './support/orders.harness';

let h: OrdersHarness;
let product: Product;

beforeAll(async () => {
  h = await startOrdersHarness();
  product = await h.createProduct({ price: 19.99, countInStock: 1_000, name: `Export lamp ${Date.now()}` });
});

afterAll(async () => {
  await h?.close();
});

/** Places one order of `quantity` lamps shipped to `address` (over the harness's ADDRESS). */
async function place(address: Partial<typeof ADDRESS>, quantity = 1): Promise<Order> {
  const { token } = await h.customer();
  const answer = await h.call<Order>('POST', '/api/orders', {
    token,
    body: { ...orderBody([{ _id: product._id, quantity }]), shippingAddress: { ...ADDRESS, ...address } },
  });
  expect(answer.status).toBe(201);
  return answer.body;
}

/** `GET api/orders/export` as an admin, its rows parsed (RFC 4180) under their header's names. */
async function exported(query = '') {
  const answer = await h.call<string>('GET', `/api/orders/export${query}`, { token: h.adminToken });
  expect(answer.status).toBe(200);
  expect(answer.headers.get('content-type')).toBe('text/csv; charset=utf-8');
  expect(answer.headers.get('content-disposition')).toMatch(
    /^attachment; filename="orders-\d{4}-\d{2}-\d{2}\.csv"$/,
  );
  const rows = parse(answer.text, { bom: true }) as string[][];
  expect(rows[0]).toEqual(EXPORT_HEADER);
  return rows
    .slice(1)
    .map((row) => Object.fromEntries(EXPORT_HEADER.map((name, index) => [name, row[index]!])));
}

/** The ids `GET api/orders` lists for the same filters, every page of them. */
async function listed(query: string): Promise<string[]> {
  const answer = await h.call<Order[]>('GET', `/api/orders?limit=500${query ? `&${query.slice(1)}` : ''}`, {
    token: h.adminToken,
  });
  expect(answer.status).toBe(200);
  expect(Number(answer.headers.get('x-total-count'))).toBe(answer.body.length);
  return answer.body.map((order) => order._id);
}

describe('GET api/orders/export', () => {
  it('is for admins only', async () => {
    await h.expectAdminOnly('GET', '/api/orders/export');
  });

  it('exports exactly the orders the list shows for the same search and filters, newest first', async () => {
    const tag = `Exporter${Date.now().toString(36)}`;
    const first = await place({ fullName: `${tag} One` }, 2);
    const second = await place({ fullName: `${tag} Two` });
    await place({ fullName: 'Somebody Else' });
    const paid = await h.call('PUT', `/api/orders/markpaid/${second._id}`, { token: h.adminToken });
    expect(paid.status).toBe(200);

    for (const query of [
      `?q=${tag}`,
      `?q=${tag}&status=Paid`,
      `?q=${tag}&paid=false`,
      `?q=${second._id}`,
      '?status=Paid',
      '',
    ]) {
      const rows = await exported(query);
      expect(
        rows.map((row) => row['Order']),
        query,
      ).toEqual(await listed(query));
    }
    expect((await exported(`?q=${second._id}`)).map((row) => row['Order'])).toEqual([second._id]);
    const mine = await exported(`?q=${tag}`);
    expect(mine.map((row) => row['Order'])).toEqual([second._id, first._id]);
    expect(mine[1]).toMatchObject({
      'Full name': `${tag} One`,
      Items: `2 x ${product.name}`,
      Units: '2',
      'Items price': '39.98',
      Total: first.totalPrice.toFixed(2),
      Status: 'Not paid',
      'Paid at': '',
      Delivered: 'no',
    });
    expect(mine[0]).toMatchObject({
      Status: 'Paid',
      'Paid at': expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
    });
  });

  it('exports orders across many read batches in order, each once, leaving out deleted ones', async () => {
    // More than two of the export's batches (500): stored as checkout stores orders, with every order
    // its own second, so newest first is one order.
    const tag = `Batcher${Date.now().toString(36)}`;
    const count = 1_201;
    const start = Date.now() - count * 1_000;
    const stored = Array.from({ length: count }, (_, index) => {
      const placedAt = new Date(start + index * 1_000);
      return {
        _id: new Types.ObjectId(),
        user: new Types.ObjectId().toHexString(),
        orderItems: [{ _id: product._id, name: product.name, quantity: 1, price: 19.99, image: '' }],
        shippingAddress: { ...ADDRESS, fullName: `${tag} ${index}` },
        paymentMethod: 'cashapp',
        itemsPrice: 19.99,
        taxPrice: 0.2,
        discount: 0,
        shippingPrice: 0,
        totalPrice: 20.19,
        ...NEW_ORDER_STATE,
        deletedAt: index === 600 ? placedAt : null,
        stockRelease: 'none',
        createdAt: placedAt,
        updatedAt: placedAt,
      };
    });
    await h.db.collection('orders').insertMany(stored);
    const rows = await exported(`?q=${tag}`);
    const newestFirst = stored
      .filter((order) => order.deletedAt === null)
      .reverse()
      .map((order) => order._id.toHexString());
    expect(rows).toHaveLength(count - 1);
    expect(rows.map((row) => row['Order'])).toEqual(newestFirst);
    expect(rows[0]!['Full name']).toBe(`${tag} ${count - 1}`);
  });

  it('quotes what needs quoting and makes inert what a spreadsheet would run', async () => {
    const tag = `Quoter${Date.now().toString(36)}`;
    await place({
      fullName: `=HYPERLINK("http://evil.example","${tag}")`,
      address: 'Flat 2, "The Mill"\n10 High St',
      city: '@York',
      phoneNumber: '+44 20 7946 0958',
    });
    const rows = await exported(`?q=${tag}`);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      'Full name': `'=HYPERLINK("http://evil.example","${tag}")`,
      Address: 'Flat 2, "The Mill"\n10 High St',
      City: "'@York",
      Phone: "'+44 20 7946 0958",
    });
  });

  it('answers a filter it cannot read with 400 and a message, as the list does', async () => {
    for (const query of ['?status=Lost', '?paid=maybe', `?q=${'x'.repeat(101)}`]) {
      const answer = await h.call<{ message: string }>('GET', `/api/orders/export${query}`, {
        token: h.adminToken,
      });
      expect(answer.status, query).toBe(400);
      expect(typeof answer.body.message).toBe('string');
    }
  });
});
