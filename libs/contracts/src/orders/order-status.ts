/** An order's payment status (docs/product/rules.md, "Order states"): new orders are 'Not paid'. */
export const ORDER_STATUSES = ['Not paid', 'Pending', 'Paid'] as const;

export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** Whether a value is one of the order statuses. */
export function isOrderStatus(value: unknown): value is OrderStatus {
  return typeof value === 'string' && (ORDER_STATUSES as readonly string[]).includes(value);
}

/**
 * What may happen to an order after it was placed:
 * - `pay`: the customer uploaded a receipt and marks the order paid (awaiting an admin);
 * - `markPaid`: an admin confirms the payment (also straight from 'Not paid');
 * - `deliver`: an admin marks a confirmed order delivered;
 * - `cancel`: the customer cancels their order while it is 'Not paid', an admin any order not yet
 *   delivered; its stock goes back to the shelf;
 * - `refund`: an admin records money given back on a paid order, whole or in part;
 * - `delete`: an admin removes the order.
 */
export type OrderAction = 'pay' | 'markPaid' | 'deliver' | 'cancel' | 'refund' | 'delete';

/** Who asks for an action: the order's customer or an admin (the service checks which one it is). */
export type OrderActor = 'customer' | 'admin';

/** The fields of an order that its state rules read and write. */
export interface OrderState {
  status: OrderStatus;
  isPaid: boolean;
  paidAt: Date | null;
  isDelivered: boolean;
  deliveredAt: Date | null;
  paymentReceipt: string;
  /** Cancelled: nothing more may happen to it but its deletion; its stock went back. */
  isCancelled: boolean;
  cancelledAt: Date | null;
  /** What was refunded so far, in cents (never more than the order's total). */
  refundedCents: number;
}

/**
 * The state of an order just placed: 'Not paid', not delivered, no receipt yet. Its dates are null,
 * so it is also the state of a new order as the API answers it (`Order`).
 */
export const NEW_ORDER_STATE = {
  status: 'Not paid',
  isPaid: false,
  paidAt: null,
  isDelivered: false,
  deliveredAt: null,
  paymentReceipt: '',
  isCancelled: false,
  cancelledAt: null,
  refundedCents: 0,
} as const satisfies OrderState;

/** What an allowed action changes, plus whether it gives the order's stock back. */
export interface OrderTransition {
  ok: true;
  changes: Partial<OrderState>;
  /**
   * True when the order's stock returns to the shelf: its cancellation, the whole refund of an order not
   * delivered (which cancels it), or the deletion of an order whose payment was never confirmed (and that
   * was not cancelled, which gave it back already).
   */
  releasesStock: boolean;
}

/** Why an action is not allowed now; the message is the API's 409 message. */
export interface OrderRefusal {
  ok: false;
  message: string;
}

const ORDER_ALREADY_PAID = 'Order is already paid';
const ORDER_NOT_PAID = 'Order is not paid yet';
const ORDER_ALREADY_DELIVERED = 'Order is already delivered';
const ORDER_RECEIPT_REQUIRED = 'A payment receipt is required';
const ORDER_CANCELLED = 'Order is cancelled';
const ORDER_PAID_NOT_CANCELLABLE = 'A paid order can only be cancelled by the shop';
const ORDER_NOT_PAID_FOR_REFUND = 'Only a paid order can be refunded';
const ORDER_REFUNDED_IN_FULL = 'Order is already refunded in full';
/** The refund's amount must be a whole number of cents, at least one. */
export const REFUND_AMOUNT = 'amountCents must be a whole number of cents, at least 1';

/** Integer cents as the shop writes an amount: `$12.30`. */
export function formatCents(cents: number): string {
  return `$${(cents / 100).toFixed(2)}`;
}

/** The 409 message of a refund above what is left to refund. */
export function refundAboveLeftMessage(leftCents: number): string {
  return `The refund is more than the ${formatCents(leftCents)} left to refund`;
}

/** The statuses each action may start from. */
export const ORDER_ACTION_FROM: Readonly<Record<OrderAction, readonly OrderStatus[]>> = {
  pay: ['Not paid'],
  markPaid: ['Not paid', 'Pending'],
  deliver: ['Paid'],
  cancel: ['Not paid', 'Pending', 'Paid'],
  refund: ['Paid'],
  delete: ['Not paid', 'Pending', 'Paid'],
};

export interface OrderActionInput {
  /** When the action happens. */
  now: Date;
  /** The uploaded receipt's URL, for `pay`. */
  receiptUrl?: string;
  /** Who cancels, for `cancel` (an admin when absent). */
  by?: OrderActor;
  /** For `refund`: the amount refunded now and the order's total, in cents. */
  refund?: { amountCents: number; totalCents: number };
}

/**
 * The order state machine (docs/decisions/0007-orders-and-checkout.md): Not paid → Pending (customer pays
 * with a receipt) → Paid (admin); an admin may also go from Not paid to Paid directly. Only a Paid
 * order may be delivered, once. Deleting gives the stock back unless the payment was confirmed
 * (status Paid): a Pending order's receipt is only the customer's claim. Cancelling (the customer's
 * own order while 'Not paid', an admin's any order not delivered) gives the stock back, keeps the
 * payment status as it was, and ends the order: it may then only be refunded or deleted
 * (docs/product/rules.md, "Cancellation"). A confirmed payment may be refunded, in parts, up to the
 * order's total; the refund that completes the total of an order not delivered cancels it too, so its
 * stock goes back (docs/product/rules.md, "Refunds").
 */
export function applyOrderAction(
  state: OrderState,
  action: OrderAction,
  input: OrderActionInput,
): OrderTransition | OrderRefusal {
  if (state.isCancelled && action !== 'delete' && action !== 'refund') {
    return { ok: false, message: ORDER_CANCELLED };
  }
  switch (action) {
    case 'pay':
      if (state.status !== 'Not paid') return { ok: false, message: ORDER_ALREADY_PAID };
      if (!input.receiptUrl) return { ok: false, message: ORDER_RECEIPT_REQUIRED };
      return {
        ok: true,
        changes: { status: 'Pending', isPaid: true, paidAt: input.now, paymentReceipt: input.receiptUrl },
        releasesStock: false,
      };
    case 'markPaid':
      if (state.status === 'Paid') return { ok: false, message: ORDER_ALREADY_PAID };
      return {
        ok: true,
        changes: { status: 'Paid', isPaid: true, paidAt: state.paidAt ?? input.now },
        releasesStock: false,
      };
    case 'deliver':
      if (state.isDelivered) return { ok: false, message: ORDER_ALREADY_DELIVERED };
      if (state.status !== 'Paid') return { ok: false, message: ORDER_NOT_PAID };
      return { ok: true, changes: { isDelivered: true, deliveredAt: input.now }, releasesStock: false };
    case 'cancel':
      if (state.isDelivered) return { ok: false, message: ORDER_ALREADY_DELIVERED };
      if (input.by === 'customer' && state.status !== 'Not paid') {
        return { ok: false, message: ORDER_PAID_NOT_CANCELLABLE };
      }
      return { ok: true, changes: { isCancelled: true, cancelledAt: input.now }, releasesStock: true };
    case 'refund': {
      const { amountCents, totalCents } = input.refund ?? { amountCents: 0, totalCents: 0 };
      if (state.status !== 'Paid') return { ok: false, message: ORDER_NOT_PAID_FOR_REFUND };
      const left = totalCents - state.refundedCents;
      if (left <= 0) return { ok: false, message: ORDER_REFUNDED_IN_FULL };
      if (!Number.isInteger(amountCents) || amountCents < 1) return { ok: false, message: REFUND_AMOUNT };
      if (amountCents > left) return { ok: false, message: refundAboveLeftMessage(left) };
      const cancels = amountCents === left && !state.isDelivered && !state.isCancelled;
      return {
        ok: true,
        changes: {
          refundedCents: state.refundedCents + amountCents,
          ...(cancels ? { isCancelled: true, cancelledAt: input.now } : {}),
        },
        releasesStock: cancels,
      };
    }
    case 'delete':
      return {
        ok: true,
        changes: {},
        releasesStock: state.status !== 'Paid' && !state.isDelivered && !state.isCancelled,
      };
  }
}
