import { type Order, type Product, toCents } from '@shop/contracts';
import { adminActionsOn } from '@shop/service-kit/testing';
import { until } from '@shop/testing';
import { Types } from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OrdersHarness, startOrdersHarness } from './support/orders.harness';

// POST api/orders/{orderId}/refunds: an admin records money given back on a paid order, in cents, never
// more than its total; the refund that completes the total of an order not delivered cancels it, and its
// stock goes back once, through products' reservation.

let h: OrdersHarness;

beforeAll(async () => {
  h = await startOrdersHarness();
});

afterAll(async () => {
  await h?.close();
});

type Answer = Order & { message?: string | string[] };

/** An order of `quantity` units of `item`, its payment confirmed and heard by products. */
async function paidOrder(item: Product, quantity: number): Promise<{ order: Order; userId: string }> {
  const owner = await h.customer();
  const placed = await h.placeOrder(owner.token, [{ _id: item._id, quantity }]);
  if (placed.status !== 201) throw new Error(`placing an order failed: ${JSON.stringify(placed.body)}`);
  const paid = await asAdmin('PUT', `/api/orders/markpaid/${placed.body._id}`);
  expect(paid.status).toBe(200);
  await until(async () => (await h.reservationState(placed.body._id)) === 'sold');
  return { order: paid.body, userId: owner.id };
}

const asAdmin = (method: string, path: string, body?: unknown) =>
  h.call<Answer>(method, path, { token: h.adminToken, ...(body === undefined ? {} : { body }) });
const refund = (id: string, body: unknown, token = h.adminToken) =>
  h.call<Answer>('POST', `/api/orders/${id}/refunds`, { token, body });

describe('POST api/orders/{orderId}/refunds', () => {
  it('records refunds in parts up to the total, each once, and says why it refuses one', async () => {
    const item = await h.createProduct({ price: 50, countInStock: 10 });
    const { order, userId } = await paidOrder(item, 2);
    const total = toCents(order.totalPrice);

    const first = await refund(order._id, {
      amountCents: 1_000,
      reference: ' TX-1 ',
      reason: 'Scratched slide',
    });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      _id: order._id,
      status: 'Paid',
      isCancelled: false,
      refundedCents: 1_000,
    });
    expect(first.body.refunds).toEqual([
      {
        _id: expect.any(String),
        amountCents: 1_000,
        reference: 'TX-1',
        reason: 'Scratched slide',
        refundedAt: expect.any(String),
      },
    ]);
    const event = await h.waitForEvent({ type: 'order.refunded', data: { orderId: order._id } });
    expect(event.data).toEqual({
      orderId: order._id,
      userId,
      refundId: first.body.refunds[0]!._id,
      amountCents: 1_000,
      refundedCents: 1_000,
      totalCents: total,
      reference: 'TX-1',
      reason: 'Scratched slide',
      refundedAt: first.body.refunds[0]!.refundedAt,
      cancelled: false,
      items: [{ productId: item._id, quantity: 2 }],
    });
    // A part refunded: the goods still go out.
    expect(await h.stockOf(item._id)).toBe(8);

    // The same payment reference again (a retried request): not counted twice.
    expect(await refund(order._id, { amountCents: 1_000, reference: 'TX-1', reason: 'Again' })).toMatchObject(
      {
        status: 409,
        body: { message: 'A refund with this reference is already recorded on this order' },
      },
    );
    const left = total - 1_000;
    expect(
      await refund(order._id, { amountCents: left + 1, reference: 'TX-2', reason: 'Too much' }),
    ).toMatchObject({
      status: 409,
      body: { message: `The refund is more than the $${(left / 100).toFixed(2)} left to refund` },
    });
    for (const bad of [
      { amountCents: 0, reference: 'TX-3', reason: 'Nothing' },
      { amountCents: 12.5, reference: 'TX-3', reason: 'Half a cent' },
      { amountCents: '100', reference: 'TX-3', reason: 'Text' },
      { amountCents: 100, reference: '  ', reason: 'No reference' },
      { amountCents: 100, reference: 'TX-3' },
    ]) {
      const answer = await refund(order._id, bad);
      expect(answer.status, JSON.stringify(bad)).toBe(400);
      expect(answer.body.message, JSON.stringify(bad)).toBeTruthy();
    }
    const customer = await h.customer();
    expect(
      (await refund(order._id, { amountCents: 100, reference: 'TX-4', reason: 'Mine' }, customer.token))
        .status,
    ).toBe(403);
    expect(
      (await refund('0123456789abcdef01234567', { amountCents: 100, reference: 'TX-4', reason: 'No order' }))
        .status,
    ).toBe(404);

    const stored = await asAdmin('GET', `/api/orders/${order._id}`);
    expect(stored.body).toMatchObject({ refundedCents: 1_000, refunds: [{ reference: 'TX-1' }] });
  });

  it('refuses to refund an order whose payment is not confirmed', async () => {
    const item = await h.createProduct({ price: 5, countInStock: 10 });
    const owner = await h.customer();
    const placed = await h.placeOrder(owner.token, [{ _id: item._id, quantity: 1 }]);
    expect(
      await refund(placed.body._id, { amountCents: 100, reference: 'TX-9', reason: 'Unpaid' }),
    ).toMatchObject({
      status: 409,
      body: { message: 'Only a paid order can be refunded' },
    });
  });

  it('cancels an undelivered order refunded in full: its stock back once, nothing more refundable', async () => {
    const item = await h.createProduct({ price: 20, countInStock: 10 });
    const { order } = await paidOrder(item, 3);
    const total = toCents(order.totalPrice);
    expect(await h.stockOf(item._id)).toBe(7);
    expect((await refund(order._id, { amountCents: 500, reference: 'R-1', reason: 'Late' })).status).toBe(
      201,
    );

    const whole = await refund(order._id, {
      amountCents: total - 500,
      reference: 'R-2',
      reason: 'Returned unopened',
    });
    expect(whole.status).toBe(201);
    expect(whole.body).toMatchObject({ refundedCents: total, isCancelled: true, status: 'Paid' });
    expect(whole.body.cancelledAt).toBe(whole.body.refunds[1]!.refundedAt);
    expect(await h.stockOf(item._id)).toBe(10);
    expect(await h.reservationState(order._id)).toBe('released');
    const event = await h.waitForEvent({
      type: 'order.refunded',
      data: { refundId: whole.body.refunds[1]!._id },
    });
    expect(event.data).toMatchObject({ cancelled: true, refundedCents: total, totalCents: total });

    expect(await refund(order._id, { amountCents: 1, reference: 'R-3', reason: 'More' })).toMatchObject({
      status: 409,
      body: { message: 'Order is already refunded in full' },
    });
    expect(await asAdmin('PUT', `/api/orders/delivered/${order._id}`)).toMatchObject({
      status: 409,
      body: { message: 'Order is cancelled' },
    });
    const deleted = await h.deleteOrder(order._id);
    expect(deleted).toMatchObject({ status: 200, body: { stockReturned: false } });
    expect(await h.stockOf(item._id)).toBe(10);
  });

  it('keeps a delivered order refunded in full as it is: the goods are with the customer', async () => {
    const item = await h.createProduct({ price: 20, countInStock: 10 });
    const { order } = await paidOrder(item, 2);
    expect((await asAdmin('PUT', `/api/orders/delivered/${order._id}`)).status).toBe(200);
    const whole = await refund(order._id, {
      amountCents: toCents(order.totalPrice),
      reference: 'D-1',
      reason: 'Goodwill',
    });
    expect(whole).toMatchObject({ status: 201, body: { isCancelled: false, isDelivered: true } });
    expect(await h.stockOf(item._id)).toBe(8);
  });

  it('lets two refunds at once add up to no more than the total', async () => {
    const item = await h.createProduct({ price: 30, countInStock: 10 });
    const { order } = await paidOrder(item, 1);
    const most = Math.ceil(toCents(order.totalPrice) * 0.6);
    const answers = await Promise.all(
      ['C-1', 'C-2'].map((reference) => refund(order._id, { amountCents: most, reference, reason: 'Twice' })),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409]);
    const stored = await asAdmin('GET', `/api/orders/${order._id}`);
    expect(stored.body).toMatchObject({ refundedCents: most, isCancelled: false });
    expect(stored.body.refunds).toHaveLength(1);
  });
});

describe('the audit trail of orders', () => {
  /** The admin actions recorded on one order, in the order they were taken. */
  const actionsOn = (orderId: string, count: number) => adminActionsOn(h, orderId, count);

  it("records each admin's payment, refund, delivery and deletion with the fields before and after", async () => {
    const adminId = '5'.repeat(24);
    const token = await h.tokens.sign({ isAdmin: true, sub: adminId });
    const item = await h.createProduct({ price: 40, countInStock: 5 });
    const owner = await h.customer();
    const placed = await h.placeOrder(owner.token, [{ _id: item._id, quantity: 1 }]);
    const id = placed.body._id;
    const as = (method: string, path: string, body?: unknown) =>
      h.call<Answer>(method, path, { token, ...(body === undefined ? {} : { body }) });
    expect((await as('PUT', `/api/orders/markpaid/${id}`)).status).toBe(200);
    expect(
      (
        await as('POST', `/api/orders/${id}/refunds`, {
          amountCents: 500,
          reference: 'A-1',
          reason: 'Scuffed',
        })
      ).status,
    ).toBe(201);
    expect((await as('PUT', `/api/orders/delivered/${id}`)).status).toBe(200);
    expect((await as('DELETE', `/api/orders/delete/${id}`)).status).toBe(200);

    const [paid, refunded, delivered, deleted] = await actionsOn(id, 4);
    const target = { type: 'order', id, label: `Order ${id}` };
    expect(paid).toEqual({
      actorId: adminId,
      action: 'order.paid',
      target,
      before: { status: 'Not paid', isPaid: false, paidAt: null },
      after: { status: 'Paid', isPaid: true, paidAt: expect.any(String) },
    });
    expect(refunded).toEqual({
      actorId: adminId,
      action: 'order.refunded',
      target,
      before: { refundedCents: 0, refund: null },
      after: { refundedCents: 500, refund: { amountCents: 500, reference: 'A-1', reason: 'Scuffed' } },
    });
    expect(delivered).toMatchObject({
      action: 'order.delivered',
      before: { isDelivered: false, deliveredAt: null },
      after: { isDelivered: true },
    });
    expect(deleted).toEqual({
      actorId: adminId,
      action: 'order.deleted',
      target,
      before: { status: 'Paid', isDelivered: true, totalPrice: placed.body.totalPrice },
      after: null,
    });
  });

  it("records an admin's cancellation, and no customer's", async () => {
    const item = await h.createProduct({ price: 15, countInStock: 5 });
    const owner = await h.customer();
    const mine = (await h.placeOrder(owner.token, [{ _id: item._id, quantity: 1 }])).body._id;
    const theirs = (await h.placeOrder(owner.token, [{ _id: item._id, quantity: 1 }])).body._id;
    expect((await h.call('PUT', `/api/orders/${mine}/cancel`, { token: owner.token })).status).toBe(200);
    // Everything the customer's cancel queued is in the stream before the admin's cancel is made, so the
    // admin's entry, once heard, comes after anything the customer's could have recorded.
    await until(async () => {
      const stored = await h.db.collection('orders').findOne({ _id: new Types.ObjectId(mine) });
      return Array.isArray(stored?.['outbox']) && stored['outbox'].length === 0;
    });
    expect((await asAdmin('PUT', `/api/orders/${theirs}/cancel`)).status).toBe(200);
    const [cancelled] = await actionsOn(theirs, 1);
    expect(cancelled).toMatchObject({
      action: 'order.cancelled',
      before: { isCancelled: false },
      after: { isCancelled: true, cancelledAt: expect.any(String) },
    });
    expect(await actionsOn(mine, 0)).toEqual([]);
  });
});
