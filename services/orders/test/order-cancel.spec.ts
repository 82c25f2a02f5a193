import { type Order, type Product } from '@shop/contracts';
import { until } from '@shop/testing';
import { Types } from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OrdersHarness, RECEIPT, startOrdersHarness } from './support/orders.harness';

// PUT api/orders/{orderId}/cancel: a customer's own unpaid order, an admin's any order not delivered.
// The stock goes back to the catalogue exactly once, through products' reservation (a paid order's
// holds stay on the products until delivery), retried while products cannot be reached.

let h: OrdersHarness;

beforeAll(async () => {
  h = await startOrdersHarness();
});

afterAll(async () => {
  await h?.close();
});

async function place(token: string, item: Product, quantity: number): Promise<Order> {
  const answer = await h.placeOrder(token, [{ _id: item._id, quantity }]);
  if (answer.status !== 201) throw new Error(`placing an order failed: ${JSON.stringify(answer.body)}`);
  return answer.body;
}

const cancel = (token: string | undefined, id: string) =>
  h.call<Order & { message?: string }>('PUT', `/api/orders/${id}/cancel`, { token });
const asAdmin = (path: string) => h.call<Order & { message?: string }>('PUT', path, { token: h.adminToken });

describe('PUT api/orders/{orderId}/cancel', () => {
  it('lets a customer cancel their unpaid order: its stock back once, shown cancelled, and nothing more', async () => {
    const item = await h.createProduct({ price: 5, countInStock: 10 });
    const owner = await h.customer();
    const order = await place(owner.token, item, 4);
    expect(await h.stockOf(item._id)).toBe(6);

    const cancelled = await cancel(owner.token, order._id);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({
      _id: order._id,
      isCancelled: true,
      status: 'Not paid',
      isPaid: false,
    });
    expect(Date.parse(cancelled.body.cancelledAt!)).toBeGreaterThan(Date.parse(order.createdAt));
    expect(await h.stockOf(item._id)).toBe(10);
    const event = await h.waitForEvent({ type: 'order.cancelled', data: { orderId: order._id } });
    expect(event.data).toEqual({
      orderId: order._id,
      userId: owner.id,
      by: 'customer',
      cancelledAt: cancelled.body.cancelledAt,
      items: [{ productId: item._id, quantity: 4 }],
      wasPaid: false,
    });
    const mine = await h.call<Order[]>('GET', '/api/orders/mine', { token: owner.token });
    expect(mine.body.find((each) => each._id === order._id)).toMatchObject({ isCancelled: true });

    for (const refused of [
      await cancel(owner.token, order._id),
      await h.call<Order & { message?: string }>('PUT', `/api/orders/${order._id}/pay`, {
        token: owner.token,
        body: { orderId: order._id, receiptUrl: RECEIPT },
      }),
      await asAdmin(`/api/orders/markpaid/${order._id}`),
      await asAdmin(`/api/orders/delivered/${order._id}`),
      await cancel(h.adminToken, order._id),
    ]) {
      expect(refused).toMatchObject({ status: 409, body: { message: 'Order is cancelled' } });
    }
    // Deleting it afterwards gives nothing back again.
    const deleted = await h.deleteOrder(order._id);
    expect(deleted).toMatchObject({ status: 200, body: { stockReturned: false } });
    expect(await h.stockOf(item._id)).toBe(10);
  });

  it("refuses a customer's cancel of an order paid or awaiting confirmation, and of someone else's", async () => {
    const item = await h.createProduct({ price: 5, countInStock: 10 });
    const owner = await h.customer();
    const order = await place(owner.token, item, 1);
    const stranger = await h.customer();
    expect(await cancel(stranger.token, order._id)).toMatchObject({
      status: 404,
      body: { message: 'Order Not Found' },
    });
    expect((await cancel(undefined, order._id)).status).toBe(401);
    expect(await cancel(owner.token, 'not-an-id')).toMatchObject({ status: 400 });
    const paying = await h.call('PUT', `/api/orders/${order._id}/pay`, {
      token: owner.token,
      body: { orderId: order._id, receiptUrl: RECEIPT },
    });
    expect(paying.status).toBe(200);
    expect(await cancel(owner.token, order._id)).toMatchObject({
      status: 409,
      body: { message: 'A paid order can only be cancelled by the shop' },
    });
    expect(await h.stockOf(item._id)).toBe(9);
  });

  it('lets an admin cancel a paid order before delivery: products gives its sold stock back, once', async () => {
    const item = await h.createProduct({ price: 5, countInStock: 10 });
    const owner = await h.customer();
    const order = await place(owner.token, item, 3);
    expect((await asAdmin(`/api/orders/markpaid/${order._id}`)).status).toBe(200);
    // Products heard of the payment: the stock is sold, its holds kept in case of this.
    await until(async () => (await h.reservationState(order._id)) === 'sold');
    expect(await h.stockOf(item._id)).toBe(7);

    const answers = await Promise.all([cancel(h.adminToken, order._id), cancel(h.adminToken, order._id)]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    const cancelled = answers.find((answer) => answer.status === 200)!;
    expect(cancelled.body).toMatchObject({ isCancelled: true, status: 'Paid', isPaid: true });
    expect(await h.stockOf(item._id)).toBe(10);
    expect(await h.reservationState(order._id)).toBe('released');
    const event = await h.waitForEvent({ type: 'order.cancelled', data: { orderId: order._id } });
    expect(event.data).toMatchObject({ by: 'admin', wasPaid: true });
    expect(await asAdmin(`/api/orders/delivered/${order._id}`)).toMatchObject({
      status: 409,
      body: { message: 'Order is cancelled' },
    });
    expect(await h.stockOf(item._id)).toBe(10);
  });

  it('refuses to cancel a delivered order, whose stock stays sold', async () => {
    const item = await h.createProduct({ price: 5, countInStock: 10 });
    const order = await place((await h.customer()).token, item, 2);
    await asAdmin(`/api/orders/markpaid/${order._id}`);
    expect((await asAdmin(`/api/orders/delivered/${order._id}`)).status).toBe(200);
    expect(await cancel(h.adminToken, order._id)).toMatchObject({
      status: 409,
      body: { message: 'Order is already delivered' },
    });
    await until(async () => (await h.reservationState(order._id)) === 'closed');
    expect(await h.stockOf(item._id)).toBe(8);
  });

  it('cancels while products is down, and its stock comes back once products is up again', async () => {
    const item = await h.createProduct({ price: 5, countInStock: 10 });
    const owner = await h.customer();
    const order = await place(owner.token, item, 2);
    await h.stopProducts();
    try {
      const cancelled = await cancel(owner.token, order._id);
      expect(cancelled).toMatchObject({ status: 200, body: { isCancelled: true } });
    } finally {
      await h.startProducts();
    }
    await until(async () => (await h.stockOf(item._id).catch(() => 0)) === 10);
    await until(
      async () =>
        (await h.db
          .collection('orders')
          .countDocuments({ _id: new Types.ObjectId(order._id), stockRelease: 'done' })) === 1,
    );
    expect(await h.stockOf(item._id)).toBe(10);
  });
  it("gives a paid order's stock back when it is cancelled and deleted while products is down", async () => {
    const item = await h.createProduct({ price: 5, countInStock: 10 });
    const order = await place((await h.customer()).token, item, 4);
    await asAdmin(`/api/orders/markpaid/${order._id}`);
    await until(async () => (await h.reservationState(order._id)) === 'sold');
    await h.stopProducts();
    try {
      expect((await cancel(h.adminToken, order._id)).status).toBe(200);
      const deleted = await h.deleteOrder(order._id);
      expect(deleted.status).toBe(200);
      const event = await h.waitForEvent({ type: 'order.deleted', data: { orderId: order._id } });
      // Not a paid order's deletion to products, which would close the reservation the release needs.
      expect(event.data).toMatchObject({ wasPaid: false, stockReturned: false });
    } finally {
      await h.startProducts();
    }
    await until(async () => (await h.reservationState(order._id)) === 'released');
    expect(await h.stockOf(item._id)).toBe(10);
  });
});

describe('GET api/orders?cancelled=', () => {
  it('lists the cancelled orders, or the others', async () => {
    const item = await h.createProduct({ price: 5, countInStock: 10 });
    const owner = await h.customer();
    const [kept, dropped] = [await place(owner.token, item, 1), await place(owner.token, item, 1)];
    await cancel(owner.token, dropped._id);
    const ids = async (query: string) =>
      (await h.call<Order[]>('GET', `/api/orders?q=${owner.id}&${query}`, { token: h.adminToken })).body.map(
        (order) => order._id,
      );
    expect(await ids('cancelled=true')).toEqual([dropped._id]);
    expect(await ids('cancelled=false')).toEqual([kept._id]);
    expect((await h.call('GET', '/api/orders?cancelled=maybe', { token: h.adminToken })).status).toBe(400);
  });
});
