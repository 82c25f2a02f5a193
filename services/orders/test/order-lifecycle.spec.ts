import { type Order, PRODUCTS_RESERVE, type Product } from '@shop/contracts';
import { ClientProxyFactory, type ClientProxy, Transport } from '@nestjs/microservices';
import { requestReply } from '@shop/service-kit';
import { Types } from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '@shop/testing';
import { type OrdersHarness, RECEIPT, startOrdersHarness } from './support/orders.harness';

let h: OrdersHarness;
let product: Product;

beforeAll(async () => {
  h = await startOrdersHarness();
  product = await h.createProduct({ price: 100, countInStock: 1_000 });
});

afterAll(async () => {
  await h?.close();
});

async function place(token: string, quantity = 1, paymentMethod = 'cashapp', item = product): Promise<Order> {
  const answer = await h.placeOrder(token, [{ _id: item._id, quantity }], { paymentMethod });
  if (answer.status !== 201) throw new Error(`placing an order failed: ${JSON.stringify(answer.body)}`);
  return answer.body;
}

const pay = (token: string, id: string, receiptUrl = RECEIPT) =>
  h.call<Order>('PUT', `/api/orders/${id}/pay`, { token, body: { orderId: id, receiptUrl } });

describe('GET api/orders/{id}', () => {
  it('shows an order to its owner and to an admin, and as not found to anyone else', async () => {
    const owner = await h.customer();
    const order = await place(owner.token);
    expect(await h.call('GET', `/api/orders/${order._id}`, { token: owner.token })).toMatchObject({
      status: 200,
      body: { _id: order._id, user: owner.id },
    });
    expect((await h.call('GET', `/api/orders/${order._id}`, { token: h.adminToken })).status).toBe(200);
    const stranger = await h.customer();
    expect(await h.call('GET', `/api/orders/${order._id}`, { token: stranger.token })).toMatchObject({
      status: 404,
      body: { message: 'Order Not Found' },
    });
  });

  it('answers 404 for an unknown id, 400 for a malformed one and 401 without a token', async () => {
    const { token } = await h.customer();
    expect(await h.call('GET', '/api/orders/ffffffffffffffffffffffff', { token })).toMatchObject({
      status: 404,
      body: { message: 'Order Not Found' },
    });
    expect(await h.call('GET', '/api/orders/not-an-id', { token })).toMatchObject({
      status: 400,
      body: { message: 'Invalid order id' },
    });
    expect((await h.call('GET', '/api/orders/ffffffffffffffffffffffff')).status).toBe(401);
  });
});

describe('GET api/orders/mine', () => {
  it("lists the customer's own orders only, newest first", async () => {
    const me = await h.customer();
    const other = await h.customer();
    const first = await place(me.token);
    await place(other.token);
    const second = await place(me.token, 2);
    const { status, body } = await h.call<Order[]>('GET', '/api/orders/mine', { token: me.token });
    expect(status).toBe(200);
    expect(body.map((o) => o._id)).toEqual([second._id, first._id]);
    expect(body.every((o) => o.user === me.id)).toBe(true);
    expect((await h.call('GET', '/api/orders/mine')).status).toBe(401);
  });

  it('pages the list with page and limit and tells the total in X-Total-Count', async () => {
    const me = await h.customer();
    const placed: Order[] = [];
    for (let i = 0; i < 5; i += 1) placed.push(await place(me.token));
    await place((await h.customer()).token);
    const newestFirst = placed.map((o) => o._id).reverse();

    const page = async (query: string) => {
      const answer = await h.call<Order[]>('GET', `/api/orders/mine${query}`, { token: me.token });
      expect(answer.status, query).toBe(200);
      return { ids: answer.body.map((o) => o._id), total: answer.headers.get('x-total-count') };
    };
    expect(await page('')).toEqual({ ids: newestFirst, total: '5' });
    expect(await page('?limit=2')).toEqual({ ids: newestFirst.slice(0, 2), total: '5' });
    expect(await page('?limit=2&page=3')).toEqual({ ids: newestFirst.slice(4), total: '5' });
    expect(await page('?limit=2&page=4')).toEqual({ ids: [], total: '5' });
    for (const query of ['?page=0', '?limit=0', '?limit=501', '?page=x']) {
      expect((await h.call('GET', `/api/orders/mine${query}`, { token: me.token })).status, query).toBe(400);
    }
  });
});

describe('GET api/orders (admin)', () => {
  it('lists every order newest first as a JSON array with X-Total-Count', async () => {
    const a = await place((await h.customer()).token);
    const b = await place((await h.customer()).token);
    const answer = await h.call<Order[]>('GET', '/api/orders', { token: h.adminToken });
    expect(answer.status).toBe(200);
    expect(Array.isArray(answer.body)).toBe(true);
    const total = Number(answer.headers.get('x-total-count'));
    expect(total).toBe(await h.db.collection('orders').countDocuments({ deletedAt: null }));
    expect(answer.body).toHaveLength(total);
    expect(answer.body.slice(0, 2).map((o) => o._id)).toEqual([b._id, a._id]);
  });

  it('filters by status, paid and delivered, searches text, and pages', async () => {
    const special = await h.createProduct({
      price: 3,
      countInStock: 50,
      name: `Zebra holster ${Date.now()}`,
    });
    const buyer = await h.customer();
    const unpaid = await place(buyer.token, 1, 'cashapp', special);
    const pending = await place(buyer.token, 1, 'cashapp', special);
    await pay(buyer.token, pending._id);
    const paid = await place(buyer.token, 1, 'cashapp', special);
    await h.call('PUT', `/api/orders/markpaid/${paid._id}`, { token: h.adminToken });
    const delivered = await place(buyer.token, 1, 'cashapp', special);
    await h.call('PUT', `/api/orders/markpaid/${delivered._id}`, { token: h.adminToken });
    await h.call('PUT', `/api/orders/delivered/${delivered._id}`, { token: h.adminToken });

    const list = async (query: string) => {
      const answer = await h.call<Order[]>(
        'GET',
        `/api/orders?q=${encodeURIComponent('zebra HOLSTER')}&${query}`,
        {
          token: h.adminToken,
        },
      );
      expect(answer.status, query).toBe(200);
      return { ids: answer.body.map((o) => o._id), total: Number(answer.headers.get('x-total-count')) };
    };
    expect(await list('')).toEqual({ ids: [delivered._id, paid._id, pending._id, unpaid._id], total: 4 });
    expect((await list('status=Not%20paid')).ids).toEqual([unpaid._id]);
    expect((await list('status=Pending')).ids).toEqual([pending._id]);
    expect((await list('status=Paid')).ids).toEqual([delivered._id, paid._id]);
    expect((await list('paid=false')).ids).toEqual([unpaid._id]);
    expect((await list('paid=true')).ids).toEqual([delivered._id, paid._id, pending._id]);
    expect((await list('delivered=true')).ids).toEqual([delivered._id]);
    expect((await list('paid=true&delivered=false')).ids).toEqual([paid._id, pending._id]);
    expect(await list('limit=2&page=2')).toEqual({ ids: [pending._id, unpaid._id], total: 4 });

    const byName = await h.call<Order[]>('GET', `/api/orders?q=${buyer.id}`, { token: h.adminToken });
    expect(byName.body.map((o) => o._id)).toEqual([delivered._id, paid._id, pending._id, unpaid._id]);
    const byId = await h.call<Order[]>('GET', `/api/orders?q=${unpaid._id}`, { token: h.adminToken });
    expect(byId.body.map((o) => o._id)).toEqual([unpaid._id]);
    // Text is matched literally, never as a pattern.
    const pattern = await h.call<Order[]>('GET', `/api/orders?q=${encodeURIComponent('.*')}`, {
      token: h.adminToken,
    });
    expect(pattern.body).toEqual([]);
  });

  it('refuses bad filters with 400, customers with 403 and strangers with 401', async () => {
    for (const query of [
      'status=Shipped',
      'paid=maybe',
      'delivered=2',
      'limit=0',
      'limit=501',
      'page=-1',
      `q=${'x'.repeat(101)}`,
    ]) {
      expect((await h.call('GET', `/api/orders?${query}`, { token: h.adminToken })).status, query).toBe(400);
    }
    await h.expectAdminOnly('GET', '/api/orders');
  });
});

describe('PUT api/orders/{orderId}/pay', () => {
  it('lets the owner pay with an uploaded receipt: paid, dated, Pending, order.paid published', async () => {
    const owner = await h.customer();
    const order = await place(owner.token);
    const before = Date.now();
    const { status, body } = await pay(owner.token, order._id);
    expect(status).toBe(200);
    expect(body).toMatchObject({
      _id: order._id,
      isPaid: true,
      status: 'Pending',
      paymentReceipt: RECEIPT,
      isDelivered: false,
    });
    expect(Date.parse(body.paidAt!)).toBeGreaterThanOrEqual(before - 1_000);
    const event = await h.waitForEvent({ type: 'order.paid', data: { orderId: order._id } });
    expect(event.data).toEqual({
      orderId: order._id,
      userId: owner.id,
      status: 'Pending',
      by: 'customer',
      paidAt: body.paidAt,
      totalPrice: order.totalPrice,
    });
  });

  it('refuses a second payment with 409, also when two arrive at once', async () => {
    const owner = await h.customer();
    const order = await place(owner.token);
    const answers = await Promise.all([pay(owner.token, order._id), pay(owner.token, order._id)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    expect(await pay(owner.token, order._id)).toMatchObject({
      status: 409,
      body: { message: 'Order is already paid' },
    });
  });

  it("answers 404 for someone else's order, even an admin's attempt, and changes nothing", async () => {
    const owner = await h.customer();
    const order = await place(owner.token);
    const stranger = await h.customer();
    expect(await pay(stranger.token, order._id)).toMatchObject({
      status: 404,
      body: { message: 'Order Not Found' },
    });
    expect((await pay(h.adminToken, order._id)).status).toBe(404);
    expect((await h.call<Order>('GET', `/api/orders/${order._id}`, { token: owner.token })).body.status).toBe(
      'Not paid',
    );
  });

  it('accepts only our own media URLs as the receipt, and a body id that matches the path', async () => {
    const owner = await h.customer();
    const order = await place(owner.token);
    for (const receiptUrl of ['https://evil.example/r.png', 'javascript:alert(1)', '', undefined]) {
      const answer = await h.call<{ message: string }>('PUT', `/api/orders/${order._id}/pay`, {
        token: owner.token,
        body: { orderId: order._id, receiptUrl },
      });
      expect(answer.status, String(receiptUrl)).toBe(400);
      expect(answer.body.message).toMatch(/receiptUrl must be an image uploaded to this shop/);
    }
    const mismatch = await h.call('PUT', `/api/orders/${order._id}/pay`, {
      token: owner.token,
      body: { orderId: 'ffffffffffffffffffffffff', receiptUrl: RECEIPT },
    });
    expect(mismatch).toMatchObject({
      status: 400,
      body: { message: 'orderId in the body does not match the path' },
    });
    expect(
      (await h.call('PUT', `/api/orders/${order._id}/pay`, { body: { receiptUrl: RECEIPT } })).status,
    ).toBe(401);
    // Without the optional body id it works.
    const ok = await h.call('PUT', `/api/orders/${order._id}/pay`, {
      token: owner.token,
      body: { receiptUrl: RECEIPT },
    });
    expect(ok.status).toBe(200);
  });
});

describe('PUT api/orders/markpaid/{id} and delivered/{id} (admin)', () => {
  it('confirms a pending payment, keeping the date the customer paid, and refuses to confirm twice', async () => {
    const owner = await h.customer();
    const order = await place(owner.token);
    const paid = (await pay(owner.token, order._id)).body;
    const marked = await h.call<Order>('PUT', `/api/orders/markpaid/${order._id}`, { token: h.adminToken });
    expect(marked).toMatchObject({
      status: 200,
      body: { status: 'Paid', isPaid: true, paidAt: paid.paidAt },
    });
    expect(await h.call('PUT', `/api/orders/markpaid/${order._id}`, { token: h.adminToken })).toMatchObject({
      status: 409,
      body: { message: 'Order is already paid' },
    });
    const event = await h.waitForEvent({ type: 'order.paid', data: { orderId: order._id, by: 'admin' } });
    expect(event.data).toMatchObject({ status: 'Paid', paidAt: paid.paidAt });
  });

  it('lets an admin mark an unpaid order paid directly', async () => {
    const order = await place((await h.customer()).token);
    const marked = await h.call<Order>('PUT', `/api/orders/markpaid/${order._id}`, { token: h.adminToken });
    expect(marked.body).toMatchObject({ status: 'Paid', isPaid: true, paymentReceipt: '' });
    expect(marked.body.paidAt).not.toBeNull();
  });

  it('delivers only orders whose payment is confirmed, once, and publishes order.delivered', async () => {
    const owner = await h.customer();
    const order = await place(owner.token);
    const deliver = () => h.call<Order>('PUT', `/api/orders/delivered/${order._id}`, { token: h.adminToken });
    expect(await deliver()).toMatchObject({ status: 409, body: { message: 'Order is not paid yet' } });
    await pay(owner.token, order._id);
    expect(await deliver()).toMatchObject({ status: 409, body: { message: 'Order is not paid yet' } });
    await h.call('PUT', `/api/orders/markpaid/${order._id}`, { token: h.adminToken });
    const delivered = await deliver();
    expect(delivered).toMatchObject({ status: 200, body: { isDelivered: true, status: 'Paid' } });
    expect(delivered.body.deliveredAt).not.toBeNull();
    expect(await deliver()).toMatchObject({ status: 409, body: { message: 'Order is already delivered' } });
    const event = await h.waitForEvent({ type: 'order.delivered', data: { orderId: order._id } });
    expect(event.data).toEqual({
      orderId: order._id,
      userId: owner.id,
      deliveredAt: delivered.body.deliveredAt,
    });
  });

  it('answers 403 to customers, 401 without a token, 404 for unknown orders', async () => {
    const owner = await h.customer();
    const order = await place(owner.token);
    for (const path of [`/api/orders/markpaid/${order._id}`, `/api/orders/delivered/${order._id}`]) {
      expect(await h.call('PUT', path, { token: owner.token })).toMatchObject({ status: 403 });
      expect((await h.call('PUT', path)).status).toBe(401);
    }
    expect(
      (await h.call('PUT', '/api/orders/markpaid/ffffffffffffffffffffffff', { token: h.adminToken })).status,
    ).toBe(404);
    expect(
      (await h.call('PUT', '/api/orders/delivered/ffffffffffffffffffffffff', { token: h.adminToken })).status,
    ).toBe(404);
    expect((await h.call<Order>('GET', `/api/orders/${order._id}`, { token: owner.token })).body.status).toBe(
      'Not paid',
    );
  });
});

describe('DELETE api/orders/delete/{id} (admin)', () => {
  it('gives the stock of an unpaid order back, hides the order everywhere and publishes order.deleted', async () => {
    const item = await h.createProduct({ price: 7, countInStock: 10 });
    const owner = await h.customer();
    const order = await place(owner.token, 4, 'cashapp', item);
    expect(await h.stockOf(item._id)).toBe(6);
    const deleted = await h.deleteOrder(order._id);
    expect(deleted).toMatchObject({ status: 200, body: { _id: order._id, stockReturned: true } });
    expect(await h.stockOf(item._id)).toBe(10);

    expect((await h.call('GET', `/api/orders/${order._id}`, { token: owner.token })).status).toBe(404);
    expect((await h.call('GET', `/api/orders/${order._id}`, { token: h.adminToken })).status).toBe(404);
    expect((await h.call<Order[]>('GET', '/api/orders/mine', { token: owner.token })).body).toEqual([]);
    expect(
      (await h.call<Order[]>('GET', `/api/orders?q=${order._id}`, { token: h.adminToken })).body,
    ).toEqual([]);
    expect((await pay(owner.token, order._id)).status).toBe(404);
    expect((await h.deleteOrder(order._id)).status).toBe(404);

    const event = await h.waitForEvent({ type: 'order.deleted', data: { orderId: order._id } });
    expect(event.data).toEqual({
      orderId: order._id,
      userId: owner.id,
      items: [{ productId: item._id, quantity: 4 }],
      wasPaid: false,
      stockReturned: true,
    });
    // Deleting the same order again (or releasing twice) never gives the stock back twice.
    expect(await h.stockOf(item._id)).toBe(10);
  });

  it('keeps the stock of a paid order taken', async () => {
    const item = await h.createProduct({ price: 7, countInStock: 10 });
    const order = await place((await h.customer()).token, 3, 'cashapp', item);
    await h.call('PUT', `/api/orders/markpaid/${order._id}`, { token: h.adminToken });
    const deleted = await h.deleteOrder(order._id);
    expect(deleted).toMatchObject({ status: 200, body: { stockReturned: false } });
    const event = await h.waitForEvent({ type: 'order.deleted', data: { orderId: order._id } });
    expect(event.data).toMatchObject({ wasPaid: true, stockReturned: false });
    expect(await h.stockOf(item._id)).toBe(7);
  });

  it('answers 403 to customers and 401 without a token', async () => {
    const owner = await h.customer();
    const order = await place(owner.token);
    expect((await h.call('DELETE', `/api/orders/delete/${order._id}`, { token: owner.token })).status).toBe(
      403,
    );
    expect((await h.call('DELETE', `/api/orders/delete/${order._id}`)).status).toBe(401);
    expect((await h.call('GET', `/api/orders/${order._id}`, { token: owner.token })).status).toBe(200);
  });
});

describe('stock held by a checkout that died before storing its order', () => {
  let client: ClientProxy;

  beforeAll(async () => {
    client = ClientProxyFactory.create({ transport: Transport.NATS, options: { servers: [h.natsUrl] } });
    await client.connect();
  });

  afterAll(async () => {
    await client?.close();
  });

  it('is given back once the pending reservation is due and no order exists', async () => {
    const item = await h.createProduct({ price: 9, countInStock: 5 });
    const orderId = new Types.ObjectId();
    // What a crashed checkout leaves behind: its write-ahead record, then the reserve, then nothing.
    await h.db
      .collection('pending_reservations')
      .insertOne({ _id: orderId, due: new Date(Date.now() + 1_000), attempts: 0, createdAt: new Date() });
    await requestReply(
      client,
      PRODUCTS_RESERVE,
      { reservationId: orderId.toHexString(), items: [{ productId: item._id, quantity: 2 }] },
      5_000,
    );
    expect(await h.stockOf(item._id)).toBe(3);
    await until(async () => (await h.stockOf(item._id)) === 5);
    await until(
      async () => (await h.db.collection('pending_reservations').countDocuments({ _id: orderId })) === 0,
    );
  });

  it('is left alone when the order was stored after all', async () => {
    const owner = await h.customer();
    const item = await h.createProduct({ price: 9, countInStock: 5 });
    const order = await place(owner.token, 2, 'cashapp', item);
    const orderId = new Types.ObjectId(order._id);
    const pendingCount = () => h.db.collection('pending_reservations').countDocuments({ _id: orderId });
    // The placement's own record is cleared after its answer (a batched write): wait for that first, or
    // the stand-in below collides with it (E11000) or is cleared by it, and the sweep is never tested.
    await until(async () => (await pendingCount()) === 0);
    // A clean-up that failed after the insert: the record is still there when it falls due.
    await h.db
      .collection('pending_reservations')
      .insertOne({ _id: orderId, due: new Date(), attempts: 0, createdAt: new Date() });
    await until(async () => (await pendingCount()) === 0);
    expect(await h.stockOf(item._id)).toBe(3);
  });
});
