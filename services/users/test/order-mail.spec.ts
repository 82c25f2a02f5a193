import { ORDER_CANCELLED, ORDER_CREATED, ORDER_DELIVERED, ORDER_PAID, ORDER_REFUNDED } from '@shop/contracts';
import { newEvent } from '@shop/service-kit';
import { until } from '@shop/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OrderMailConsumer } from '../src/order-mail/order-mail.consumer';
import { type UsersHarness, mailsTo, startUsers } from './support/users.harness';

// The e-mails a shopper gets at each step of an order, from the orders' events, through the same mailer
// (here: .eml files in the harness's outbox folder) the password reset uses; one per event.

let users: UsersHarness;

beforeAll(async () => {
  users = await startUsers();
});

afterAll(async () => {
  await users?.close();
});

const ORDER = '65a1f0c2e4b0a1b2c3d4e5f6';
const at = '2026-11-29T06:00:00.000Z';

function eventsFor(userId: string) {
  return [
    newEvent(ORDER_CREATED, {
      orderId: ORDER,
      userId,
      items: [{ productId: 'p1', quantity: 2, price: 10 }],
      paymentMethod: 'cashapp',
      totalPrice: 20.2,
    }),
    newEvent(ORDER_PAID, {
      orderId: ORDER,
      userId,
      status: 'Pending',
      by: 'customer',
      paidAt: at,
      totalPrice: 20.2,
    }),
    newEvent(ORDER_PAID, {
      orderId: ORDER,
      userId,
      status: 'Paid',
      by: 'admin',
      paidAt: at,
      totalPrice: 20.2,
    }),
    newEvent(ORDER_DELIVERED, { orderId: ORDER, userId, deliveredAt: at }),
    newEvent(ORDER_REFUNDED, {
      orderId: ORDER,
      userId,
      refundId: 'r1',
      amountCents: 500,
      refundedCents: 500,
      totalCents: 2020,
      reference: 'TX-<1>',
      reason: 'Scratched & dented',
      refundedAt: at,
      cancelled: false,
      items: [{ productId: 'p1', quantity: 2 }],
    }),
    newEvent(ORDER_CANCELLED, {
      orderId: ORDER,
      userId,
      by: 'admin',
      cancelledAt: at,
      items: [{ productId: 'p1', quantity: 2 }],
      wasPaid: true,
    }),
  ];
}

const subjectOf = (mail: string) => /^Subject: (.*)$/m.exec(mail)?.[1];

describe('e-mail to shoppers', () => {
  it('writes the customer at each step, as text and HTML, and not about their own payment', async () => {
    const shopper = await users.signUp({ name: 'Ann <Shopper>' });
    for (const event of eventsFor(shopper._id)) await users.publish(event);

    await until(() => mailsTo(users.outboxDir, shopper.email).length >= 5, 10_000);
    const mails = mailsTo(users.outboxDir, shopper.email);
    expect(mails.map(subjectOf)).toEqual([
      `Order ${ORDER} placed`,
      `Payment received for order ${ORDER}`,
      `Order ${ORDER} delivered`,
      `Refund of $5.00 for order ${ORDER}`,
      `Order ${ORDER} cancelled`,
    ]);
    const refund = mails[3]!;
    expect(refund).toMatch(/Content-Type: multipart\/alternative/);
    expect(refund).toContain('We have sent you $5.00 for order');
    expect(refund).toContain('$5.00 of its $20.20 has been refunded so far.');
    // What the shopper and the admin typed is text in the HTML, never markup.
    expect(refund).toContain('Hello Ann &lt;Shopper&gt;,');
    expect(refund).toContain('TX-&lt;1&gt;');
    expect(refund).toContain('Scratched &amp; dented');
    expect(mails[4]).toContain('We will send your payment back');
  });

  it('sends one message per event, however often the event comes', async () => {
    const shopper = await users.signUp();
    const [placed] = eventsFor(shopper._id);
    await users.publish(placed!);
    await until(() => mailsTo(users.outboxDir, shopper.email).length === 1, 10_000);

    // Delivered again (a redelivery after a lost acknowledgement): acknowledged, not sent again.
    const consumer = users.app.get(OrderMailConsumer);
    await consumer.handle(placed!);
    await consumer.handle(placed!);
    expect(mailsTo(users.outboxDir, shopper.email)).toHaveLength(1);

    // One claimed whose message never went (the mailer failed before): the redelivery sends it.
    const delivered = eventsFor(shopper._id)[3]!;
    await users.db.collection('sent_mails').insertOne({
      _id: delivered.id as never,
      state: 'sending',
      type: delivered.type,
      claimedAt: new Date(),
    });
    await consumer.handle(delivered);
    expect(mailsTo(users.outboxDir, shopper.email).map(subjectOf)).toEqual([
      `Order ${ORDER} placed`,
      `Order ${ORDER} delivered`,
    ]);
  });

  it('writes nobody for an account that is gone or an event it cannot read', async () => {
    const shopper = await users.signUp();
    const consumer = users.app.get(OrderMailConsumer);
    const placed = eventsFor(shopper._id)[0]!;
    const gone = {
      ...placed,
      id: 'e-gone',
      data: { ...(placed.data as object), userId: ORDER },
    };
    await consumer.handle(gone);
    const unreadable = {
      ...eventsFor(shopper._id)[4]!,
      id: 'e-odd',
      data: { userId: shopper._id, orderId: ORDER },
    };
    await consumer.handle(unreadable);
    expect(mailsTo(users.outboxDir, shopper.email)).toEqual([]);
  });
});
