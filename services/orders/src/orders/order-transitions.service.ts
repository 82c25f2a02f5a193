import { ConflictException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import {
  ORDER_CANCELLED,
  ORDER_DELETED,
  ORDER_DELIVERED,
  ORDER_PAID,
  ORDER_REFUNDED,
  type EventEnvelope,
  type Order,
  type OrderActor,
  type OrderCancelledEvent,
  type OrderDeleted,
  type OrderDeletedEvent,
  type OrderDeliveredEvent,
  type OrderPaidEvent,
  type OrderRefundedEvent,
  type OrderState,
  type OrderTransition,
  applyOrderAction,
  toCents,
} from '@shop/contracts';
import { type AuthenticatedUser, OutboxRelayProvider, newEvent } from '@shop/service-kit';
import { type Model, Types } from 'mongoose';
import { StockReleasesService } from '../stock/stock-releases.service';
import type { RefundOrderDto } from './dto/refund-order.dto';
import { type AuditedRequest, orderAudit } from './order-audit';
import { ORDER_NOT_FOUND, live, orderId } from './order-scope';
import { ORDER_FIELDS, toOrder } from './order-views';
import { ORDER_MODEL, type OrderRecord, type RefundRecord } from './order.schema';

// How often a transition re-reads the order when another change got in between.
const MAX_ATTEMPTS = 5;

function stateOf(order: OrderRecord): OrderState {
  return {
    status: order.status,
    isPaid: order.isPaid,
    paidAt: order.paidAt ?? null,
    isDelivered: order.isDelivered,
    deliveredAt: order.deliveredAt ?? null,
    paymentReceipt: order.paymentReceipt ?? '',
    isCancelled: order.isCancelled ?? false,
    cancelledAt: order.cancelledAt ?? null,
    refundedCents: order.refundedCents ?? 0,
  };
}

/** The `order.paid` of a payment moved on to `status` by `by`, dated as the change dates it (else now). */
function orderPaid(
  status: OrderPaidEvent['data']['status'],
  by: OrderPaidEvent['data']['by'],
): TransitionRequest['event'] {
  return (before, { changes }, now): OrderPaidEvent =>
    newEvent(ORDER_PAID, {
      orderId: before._id.toHexString(),
      userId: before.user,
      status,
      by,
      paidAt: (changes.paidAt ?? now).toISOString(),
      totalPrice: before.totalPrice,
    });
}

interface TransitionRequest extends AuditedRequest {
  id: string;
  /** Only this customer's order (the customer's own actions); admins act on any order. */
  owner?: string;
  receiptUrl?: string;
  /** Who cancels (`cancel`). */
  by?: OrderActor;
  /** The event the change publishes, built from the order before and the change. */
  event: (before: OrderRecord, transition: OrderTransition, now: Date) => EventEnvelope;
}

/** The state changes of stored orders (rules in `@shop/contracts`' order-status), each with its events. */
@Injectable()
export class OrderTransitionsService {
  constructor(
    @InjectModel(ORDER_MODEL) private readonly orders: Model<OrderRecord>,
    private readonly relay: OutboxRelayProvider,
    private readonly releases: StockReleasesService,
  ) {}

  /** The customer marks their order paid with the receipt they uploaded: Not paid → Pending. */
  async pay(customer: AuthenticatedUser, id: string, receiptUrl: string): Promise<Order> {
    const { order } = await this.transition({
      id,
      action: 'pay',
      owner: customer.id,
      receiptUrl,
      event: orderPaid('Pending', 'customer'),
    });
    return toOrder(order);
  }

  /** An admin confirms the payment: Not paid or Pending → Paid. */
  async markPaid(admin: AuthenticatedUser, id: string): Promise<Order> {
    const { order } = await this.transition({
      id,
      admin,
      action: 'markPaid',
      event: orderPaid('Paid', 'admin'),
    });
    return toOrder(order);
  }

  /** An admin marks a paid order delivered. */
  async deliver(admin: AuthenticatedUser, id: string): Promise<Order> {
    const { order } = await this.transition({
      id,
      admin,
      action: 'deliver',
      event: (before, _transition, now): OrderDeliveredEvent =>
        newEvent(ORDER_DELIVERED, {
          orderId: before._id.toHexString(),
          userId: before.user,
          deliveredAt: now.toISOString(),
        }),
    });
    return toOrder(order);
  }

  /**
   * Cancels an order: its customer's own while it is 'Not paid', an admin's any not delivered
   * (`applyOrderAction`). Its `order.cancelled` goes out with the change, and its stock goes back to
   * the catalogue, now or by the release pass until the catalogue confirms (the catalogue gives a
   * reservation back once, however often it is asked).
   */
  async cancel(viewer: AuthenticatedUser, id: string): Promise<Order> {
    const by: OrderActor = viewer.isAdmin ? 'admin' : 'customer';
    const { order } = await this.transition({
      id,
      action: 'cancel',
      by,
      ...(viewer.isAdmin ? { admin: viewer } : { owner: viewer.id }),
      event: (before, { changes }, now): OrderCancelledEvent =>
        newEvent(ORDER_CANCELLED, {
          orderId: before._id.toHexString(),
          userId: before.user,
          by,
          cancelledAt: (changes.cancelledAt ?? now).toISOString(),
          items: before.orderItems.map((item) => ({ productId: item._id, quantity: item.quantity })),
          wasPaid: before.status === 'Paid',
        }),
    });
    await this.releases.releaseOrderStock(order._id);
    return toOrder(order);
  }

  /**
   * An admin records a refund of a paid order: money given back by hand, whole or in part, never more than
   * what is left of its total (`applyOrderAction`). A refund's payment reference is recorded once per
   * order, so a retried request is refused rather than counted twice. The refund that completes the total
   * of an order not delivered cancels it, and its stock goes back as a cancellation's does.
   */
  async refund(admin: AuthenticatedUser, id: string, body: RefundOrderDto): Promise<Order> {
    const refund: RefundRecord = {
      _id: new Types.ObjectId(),
      amountCents: body.amountCents,
      reference: body.reference,
      reason: body.reason,
      refundedAt: new Date(),
      by: admin.id,
    };
    const { order, transition } = await this.transition({
      id,
      admin,
      action: 'refund',
      refund,
      event: (before, { changes, releasesStock }): OrderRefundedEvent =>
        newEvent(ORDER_REFUNDED, {
          orderId: before._id.toHexString(),
          userId: before.user,
          refundId: refund._id.toHexString(),
          amountCents: refund.amountCents,
          refundedCents: changes.refundedCents ?? refund.amountCents,
          totalCents: toCents(before.totalPrice),
          reference: refund.reference,
          reason: refund.reason,
          refundedAt: refund.refundedAt.toISOString(),
          cancelled: releasesStock,
          items: before.orderItems.map((item) => ({ productId: item._id, quantity: item.quantity })),
        }),
    });
    if (transition.releasesStock) await this.releases.releaseOrderStock(order._id);
    return toOrder(order);
  }

  /**
   * An admin deletes an order: it disappears from every read at once, its `order.deleted` goes out,
   * and an order whose payment was never confirmed gives its stock back (retried until it does).
   */
  async delete(admin: AuthenticatedUser, id: string): Promise<OrderDeleted> {
    const { order, transition } = await this.transition({
      id,
      admin,
      action: 'delete',
      event: (before, { releasesStock }): OrderDeletedEvent =>
        newEvent(ORDER_DELETED, {
          orderId: before._id.toHexString(),
          userId: before.user,
          items: before.orderItems.map((item) => ({ productId: item._id, quantity: item.quantity })),
          // A cancelled order's payment no longer stands, and its stock comes back through the
          // cancellation: products must not close its reservation (it would drop the holds a release
          // still pending needs).
          wasPaid: before.isPaid && !before.isCancelled,
          stockReturned: releasesStock,
        }),
    });
    if (transition.releasesStock) await this.releases.releaseOrderStock(order._id);
    return {
      _id: order._id.toHexString(),
      message: 'Order deleted',
      stockReturned: transition.releasesStock,
    };
  }

  /**
   * Applies one action with compare-and-set: the update only matches while the order is still in
   * the state the rules were checked against, so two concurrent actions cannot both pass a rule
   * that only one of them may (a second pay, a delivery racing a delete).
   */
  private async transition(
    request: TransitionRequest,
  ): Promise<{ order: OrderRecord; transition: OrderTransition }> {
    const id = orderId(request.id);
    const scope = live({ _id: id, ...(request.owner ? { user: request.owner } : {}) });
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
      const before = await this.orders.findOne(scope).select(ORDER_FIELDS).lean<OrderRecord>();
      if (!before) throw new NotFoundException(ORDER_NOT_FOUND);
      const now = request.refund?.refundedAt ?? new Date();
      if (
        request.refund &&
        (before.refunds ?? []).some((each) => each.reference === request.refund!.reference)
      ) {
        throw new ConflictException('A refund with this reference is already recorded on this order');
      }
      const result = applyOrderAction(stateOf(before), request.action, {
        now,
        receiptUrl: request.receiptUrl,
        by: request.by,
        refund: request.refund && {
          amountCents: request.refund.amountCents,
          totalCents: toCents(before.totalPrice),
        },
      });
      if (!result.ok) throw new ConflictException(result.message);
      const set: Record<string, unknown> = { ...result.changes };
      if (request.action === 'delete') {
        set['deletedAt'] = now;
        // A cancelled order's release is under way or done: its delete leaves it as it is.
        if (!before.isCancelled) set['stockRelease'] = result.releasesStock ? 'pending' : 'none';
      }
      if (request.action === 'cancel' || result.releasesStock) set['stockRelease'] = 'pending';
      const after = await this.relay.updateWithEvent(
        this.orders,
        {
          ...scope,
          status: before.status,
          isDelivered: before.isDelivered,
          isCancelled: before.isCancelled ? true : { $ne: true },
          // Two refunds at once: only the one that saw the amount as it still is may add to it.
          ...(request.refund
            ? { refundedCents: before.refundedCents ? before.refundedCents : { $in: [0, null] } }
            : {}),
        },
        request.refund ? { $set: set, $push: { refunds: request.refund } } : { $set: set },
        [request.event(before, result, now), ...orderAudit(request, before, result)],
        { returnDocument: 'after', projection: ORDER_FIELDS },
      );
      if (after) return { order: after, transition: result };
    }
    throw new ConflictException('The order changed meanwhile, please try again');
  }
}
