import { describe, expect, it } from 'vitest';
import {
  NEW_ORDER_STATE,
  ORDER_ACTION_FROM,
  ORDER_STATUSES,
  REFUND_AMOUNT,
  type OrderAction,
  type OrderState,
  applyOrderAction,
  isOrderStatus,
} from './order-status';

const now = new Date('2025-01-02T03:04:05Z');
const earlier = new Date('2025-01-01T00:00:00Z');
const receiptUrl = '/api/media/0123456789abcdef01234567/receipt.png';

const newOrder = NEW_ORDER_STATE;
const pending: OrderState = {
  ...newOrder,
  status: 'Pending',
  isPaid: true,
  paidAt: earlier,
  paymentReceipt: receiptUrl,
};
const paid: OrderState = { ...pending, status: 'Paid' };
const delivered: OrderState = { ...paid, isDelivered: true, deliveredAt: earlier };
/** An action refused with this message (the API's 409 message). */
const refused = (message: string) => ({ ok: false, message });

describe('applyOrderAction', () => {
  it('lets the customer pay a new order with a receipt: paid, dated, Pending', () => {
    expect(applyOrderAction(newOrder, 'pay', { now, receiptUrl })).toEqual({
      ok: true,
      changes: { status: 'Pending', isPaid: true, paidAt: now, paymentReceipt: receiptUrl },
      releasesStock: false,
    });
  });

  it('refuses a second payment and a payment without a receipt', () => {
    expect(applyOrderAction(pending, 'pay', { now, receiptUrl })).toEqual(refused('Order is already paid'));
    expect(applyOrderAction(paid, 'pay', { now, receiptUrl })).toMatchObject({ ok: false });
    expect(applyOrderAction(newOrder, 'pay', { now })).toEqual(refused('A payment receipt is required'));
  });

  it('lets an admin confirm a pending payment, keeping the date the customer paid', () => {
    expect(applyOrderAction(pending, 'markPaid', { now })).toEqual({
      ok: true,
      changes: { status: 'Paid', isPaid: true, paidAt: earlier },
      releasesStock: false,
    });
  });

  it('lets an admin mark a new order paid directly, dated now', () => {
    expect(applyOrderAction(newOrder, 'markPaid', { now })).toMatchObject({
      ok: true,
      changes: { status: 'Paid', isPaid: true, paidAt: now },
    });
  });

  it('refuses to mark a Paid order paid again', () => {
    expect(applyOrderAction(paid, 'markPaid', { now })).toEqual(refused('Order is already paid'));
  });

  it('delivers only confirmed orders, once', () => {
    expect(applyOrderAction(paid, 'deliver', { now })).toEqual({
      ok: true,
      changes: { isDelivered: true, deliveredAt: now },
      releasesStock: false,
    });
    expect(applyOrderAction(newOrder, 'deliver', { now })).toEqual(refused('Order is not paid yet'));
    expect(applyOrderAction(pending, 'deliver', { now })).toEqual(refused('Order is not paid yet'));
    expect(applyOrderAction(delivered, 'deliver', { now })).toEqual(refused('Order is already delivered'));
  });

  it('gives the stock back when deleting an order whose payment was never confirmed', () => {
    expect(applyOrderAction(newOrder, 'delete', { now })).toMatchObject({ ok: true, releasesStock: true });
    expect(applyOrderAction(pending, 'delete', { now })).toMatchObject({ ok: true, releasesStock: true });
    expect(applyOrderAction(paid, 'delete', { now })).toMatchObject({ ok: true, releasesStock: false });
    expect(applyOrderAction(delivered, 'delete', { now })).toMatchObject({ ok: true, releasesStock: false });
  });

  it("lets the customer cancel their order while it is 'Not paid', an admin any order not delivered", () => {
    const cancelled = { ok: true, changes: { isCancelled: true, cancelledAt: now }, releasesStock: true };
    expect(applyOrderAction(newOrder, 'cancel', { now, by: 'customer' })).toEqual(cancelled);
    for (const state of [pending, paid]) {
      expect(applyOrderAction(state, 'cancel', { now, by: 'customer' })).toEqual(
        refused('A paid order can only be cancelled by the shop'),
      );
    }
    for (const state of [newOrder, pending, paid]) {
      expect(applyOrderAction(state, 'cancel', { now, by: 'admin' })).toEqual(cancelled);
      expect(applyOrderAction(state, 'cancel', { now })).toEqual(cancelled);
    }
    expect(applyOrderAction(delivered, 'cancel', { now, by: 'admin' })).toEqual(
      refused('Order is already delivered'),
    );
  });

  it('lets nothing happen to a cancelled order but its refund and its deletion, which gives no stock back again', () => {
    for (const state of [newOrder, pending, paid]) {
      const cancelled: OrderState = { ...state, isCancelled: true, cancelledAt: earlier };
      for (const action of ['pay', 'markPaid', 'deliver', 'cancel'] as const) {
        expect(applyOrderAction(cancelled, action, { now, receiptUrl, by: 'admin' }), action).toEqual(
          refused('Order is cancelled'),
        );
      }
      expect(applyOrderAction(cancelled, 'delete', { now })).toEqual({
        ok: true,
        changes: {},
        releasesStock: false,
      });
    }
  });

  it('refunds a confirmed payment in parts, up to the total, in whole cents', () => {
    const refund = (amountCents: number) => ({ amountCents, totalCents: 12_345 });
    expect(applyOrderAction(paid, 'refund', { now, refund: refund(2_345) })).toEqual({
      ok: true,
      changes: { refundedCents: 2_345 },
      releasesStock: false,
    });
    const partly: OrderState = { ...paid, refundedCents: 2_345 };
    expect(applyOrderAction(partly, 'refund', { now, refund: refund(10_001) })).toEqual(
      refused('The refund is more than the $100.00 left to refund'),
    );
    for (const amountCents of [0, -5, 1.5]) {
      expect(applyOrderAction(partly, 'refund', { now, refund: refund(amountCents) })).toEqual(
        refused(REFUND_AMOUNT),
      );
    }
    for (const unconfirmed of [newOrder, pending]) {
      expect(applyOrderAction(unconfirmed, 'refund', { now, refund: refund(100) })).toEqual(
        refused('Only a paid order can be refunded'),
      );
    }
    expect(
      applyOrderAction({ ...paid, refundedCents: 12_345 }, 'refund', { now, refund: refund(1) }),
    ).toEqual(refused('Order is already refunded in full'));
  });

  it('cancels an undelivered order refunded in full, giving its stock back once', () => {
    const partly: OrderState = { ...paid, refundedCents: 345 };
    const rest = { amountCents: 12_000, totalCents: 12_345 };
    expect(applyOrderAction(partly, 'refund', { now, refund: rest })).toEqual({
      ok: true,
      changes: { refundedCents: 12_345, isCancelled: true, cancelledAt: now },
      releasesStock: true,
    });
    // Delivered: the goods are with the customer, nothing comes back to the shelf.
    expect(
      applyOrderAction({ ...partly, isDelivered: true, deliveredAt: earlier }, 'refund', {
        now,
        refund: rest,
      }),
    ).toEqual({
      ok: true,
      changes: { refundedCents: 12_345 },
      releasesStock: false,
    });
    // Cancelled by the shop first: the stock went back then, the refund only records the money.
    const cancelled: OrderState = { ...partly, isCancelled: true, cancelledAt: earlier };
    expect(applyOrderAction(cancelled, 'refund', { now, refund: rest })).toEqual({
      ok: true,
      changes: { refundedCents: 12_345 },
      releasesStock: false,
    });
  });

  it('agrees with ORDER_ACTION_FROM for every undelivered status', () => {
    const actions: OrderAction[] = ['pay', 'markPaid', 'deliver', 'cancel', 'refund', 'delete'];
    const states: Record<string, OrderState> = { 'Not paid': newOrder, Pending: pending, Paid: paid };
    for (const status of ORDER_STATUSES) {
      for (const action of actions) {
        const result = applyOrderAction(states[status]!, action, {
          now,
          receiptUrl,
          refund: { amountCents: 100, totalCents: 100 },
        });
        expect(result.ok, `${action} from ${status}`).toBe(ORDER_ACTION_FROM[action].includes(status));
      }
    }
  });
});

describe('isOrderStatus', () => {
  it('knows the three statuses and nothing else', () => {
    expect(ORDER_STATUSES.every(isOrderStatus)).toBe(true);
    expect(isOrderStatus('paid')).toBe(false);
    expect(isOrderStatus(undefined)).toBe(false);
  });
});
