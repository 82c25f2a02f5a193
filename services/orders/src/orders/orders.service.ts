import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  BadRequestException,
  ConflictException,
  Inject,
  Injectable,
  NotFoundException,
} from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import {
  ORDER_CANCELLED,
  ORDER_DELETED,
  ORDER_DELIVERED,
  ORDER_PAID,
  ORDER_REFUNDED,
  type AdminActionName,
  type EventEnvelope,
  type Order,
  type OrderAction,
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
import {
  type AuthenticatedUser,
  OutboxRelayProvider,
  SERVICE_CONTEXT,
  type ServiceContext,
  adminActionEvent,
  escapeRegex,
  findPage,
  newEvent,
  pageWindow,
} from '@shop/service-kit';
import { type Model, type QueryFilter, Types } from 'mongoose';
import { StockReleasesService } from '../stock/stock-releases.service';
import {
  DEFAULT_PAGE_SIZE,
  type ListOrdersQuery,
  type OrderFilterQuery,
  type PageQuery,
} from './dto/list-orders.query';
import { EXPORT_FIELDS, exportCsvWriter, exportRow } from './order-export';
import { ORDER_FIELDS, toOrder } from './order-views';
import { ORDER_MODEL, type OrderRecord, type RefundRecord } from './order.schema';
import type { RefundOrderDto } from './dto/refund-order.dto';

const ORDER_NOT_FOUND = 'Order Not Found';
const OBJECT_ID = /^[0-9a-f]{24}$/i;
// Newest first; the id breaks ties so pages never shuffle.
const NEWEST_FIRST = { createdAt: -1, _id: -1 } as const;
// How often a transition re-reads the order when another change got in between.
const MAX_ATTEMPTS = 5;
// Orders an export reads from the database at a time.
const EXPORT_BATCH = 500;

/** Deleted orders are invisible to every read. */
const live = <T extends QueryFilter<OrderRecord>>(filter: T) => ({ ...filter, deletedAt: null });

/** The orders an admin's list or export filters match (deleted ones never). */
function matching(query: OrderFilterQuery): QueryFilter<OrderRecord> {
  const filter: QueryFilter<OrderRecord> = live({});
  if (query.status) filter.status = query.status;
  if (query.paid !== undefined) filter.isPaid = query.paid;
  if (query.delivered !== undefined) filter.isDelivered = query.delivered;
  // Orders stored before cancellation existed have no isCancelled: `$ne: true` counts them as not cancelled.
  if (query.cancelled !== undefined) filter.isCancelled = query.cancelled ? true : { $ne: true };
  if (query.q) {
    const text = new RegExp(escapeRegex(query.q), 'i');
    filter.$or = [
      { user: text },
      { paymentMethod: text },
      { status: text },
      { 'orderItems.name': text },
      { 'shippingAddress.fullName': text },
      { 'shippingAddress.address': text },
      { 'shippingAddress.city': text },
      { 'shippingAddress.country': text },
      { 'shippingAddress.phoneNumber': text },
      // An ObjectId, not its text: the same filter whatever reads it (an aggregation does not cast).
      ...(OBJECT_ID.test(query.q) ? [{ _id: new Types.ObjectId(query.q.toLowerCase()) }] : []),
    ];
  }
  return filter;
}

function orderId(id: string): string {
  if (!OBJECT_ID.test(id)) throw new BadRequestException('Invalid order id');
  return id.toLowerCase();
}

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

export interface OrderPage {
  orders: Order[];
  total: number;
}

interface TransitionRequest {
  id: string;
  action: OrderAction;
  /** Only this customer's order (the customer's own actions); admins act on any order. */
  owner?: string;
  receiptUrl?: string;
  /** Who cancels (`cancel`). */
  by?: OrderActor;
  /** The refund recorded (`refund`). */
  refund?: RefundRecord;
  /** The event the change publishes, built from the order before and the change. */
  event: (before: OrderRecord, transition: OrderTransition, now: Date) => EventEnvelope;
  /** The admin acting, whose action the audit trail records (`admin.action` beside the event). */
  admin?: AuthenticatedUser;
}

/** The audit trail's name of each action an admin takes on an order. */
const AUDITED_ACTIONS: Partial<Record<OrderAction, AdminActionName>> = {
  markPaid: 'order.paid',
  deliver: 'order.delivered',
  cancel: 'order.cancelled',
  refund: 'order.refunded',
  delete: 'order.deleted',
};

/** The `admin.action` of an admin's transition: the fields it changed, before and after. */
function orderAudit(request: TransitionRequest, before: OrderRecord, result: OrderTransition) {
  const action = request.admin && AUDITED_ACTIONS[request.action];
  if (!request.admin || !action) return [];
  const id = before._id.toHexString();
  const was = before as unknown as Record<string, unknown>;
  const changed = Object.keys(result.changes);
  const refund = request.refund && {
    refund: {
      amountCents: request.refund.amountCents,
      reference: request.refund.reference,
      reason: request.refund.reason,
    },
  };
  return [
    adminActionEvent({
      actor: request.admin,
      action,
      target: { type: 'order', id, label: `Order ${id}` },
      before:
        request.action === 'delete'
          ? { status: before.status, isDelivered: before.isDelivered, totalPrice: before.totalPrice }
          : Object.fromEntries(changed.map((key) => [key, was[key]])),
      after: request.action === 'delete' ? null : { ...result.changes, ...refund },
    }),
  ];
}

/** Reads and the state transitions of stored orders (rules in `@shop/contracts`' order-status). */
@Injectable()
export class OrdersService {
  constructor(
    @InjectModel(ORDER_MODEL) private readonly orders: Model<OrderRecord>,
    private readonly relay: OutboxRelayProvider,
    private readonly releases: StockReleasesService,
    @Inject(SERVICE_CONTEXT) private readonly context: ServiceContext,
  ) {}

  /** One order, for its owner or an admin; anyone else learns nothing (404). */
  async findOne(viewer: AuthenticatedUser, id: string): Promise<Order> {
    const filter = live({ _id: orderId(id), ...(viewer.isAdmin ? {} : { user: viewer.id }) });
    const order = await this.orders.findOne(filter).select(ORDER_FIELDS).lean<OrderRecord>();
    if (!order) throw new NotFoundException(ORDER_NOT_FOUND);
    return toOrder(order);
  }

  /** The customer's own orders, newest first, one page at a time, with their total. */
  mine(userId: string, query: PageQuery): Promise<OrderPage> {
    return this.page(live({ user: userId }), query);
  }

  /** Every order (admin), newest first, filtered, one page at a time, with the filtered total. */
  list(query: ListOrdersQuery): Promise<OrderPage> {
    return this.page(matching(query), query);
  }

  /**
   * The orders an admin's filters match, newest stored first, as CSV (`order-export.ts`), written as the
   * reader takes it: one cursor batch in this process at a time, however many match. In the order the
   * orders were stored (`$natural`, newest first; orders are stored when placed, so it is the order they
   * were placed in), because a sorted read makes a database hold what it sorts: the embedded one sorts
   * whole documents in its heap (100,000 orders ran it out of memory) and answers an aggregation in one
   * reply, and MongoDB sorts without an index in memory too. A natural-order read needs neither: MongoDB
   * streams it, and the embedded database (which collects the result first) hands it over in batches. The
   * answer starts once the first order is read: a database that cannot answer gets the client a 503,
   * not a cut file; a failure after that can only cut the file short, so it is logged.
   */
  async exportCsv(query: OrderFilterQuery): Promise<Readable> {
    const cursor = this.orders
      .find(matching(query))
      .select(EXPORT_FIELDS)
      .sort({ $natural: -1 })
      .lean<OrderRecord>()
      .cursor({ batchSize: EXPORT_BATCH });
    let first: OrderRecord | null;
    try {
      first = (await cursor.next()) as OrderRecord | null;
    } catch (error) {
      await cursor.close().catch(() => undefined);
      throw error;
    }
    async function* rows() {
      try {
        if (first) yield exportRow(first);
        for await (const order of cursor) yield exportRow(order as OrderRecord);
      } finally {
        await cursor.close().catch(() => undefined);
      }
    }
    const csv = exportCsvWriter();
    pipeline(Readable.from(rows()), csv).catch((error: unknown) =>
      this.context.logger.warn({ err: error }, 'order export cut short'),
    );
    return csv;
  }

  /** One page of the orders matching `filter`, newest first, with how many match in all. */
  private async page(filter: QueryFilter<OrderRecord>, query: PageQuery): Promise<OrderPage> {
    const { docs, total } = await findPage(this.orders, filter, {
      select: ORDER_FIELDS,
      sort: NEWEST_FIRST,
      page: pageWindow(query.page, query.limit ?? DEFAULT_PAGE_SIZE),
    });
    return { total, orders: docs.map(toOrder) };
  }

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
