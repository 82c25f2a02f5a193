import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Inject, Injectable, NotFoundException } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Order } from '@shop/contracts';
import {
  SERVICE_CONTEXT,
  type AuthenticatedUser,
  type Page,
  type ServiceContext,
  escapeRegex,
  findPage,
  pageWindow,
} from '@shop/service-kit';
import { type Model, type QueryFilter, Types } from 'mongoose';
import {
  DEFAULT_PAGE_SIZE,
  type ListOrdersQuery,
  type OrderFilterQuery,
  type PageQuery,
} from './dto/list-orders.query';
import { EXPORT_FIELDS, exportCsvWriter, exportRow } from './order-export';
import { ORDER_NOT_FOUND, isOrderId, live, orderId } from './order-scope';
import { ORDER_FIELDS, toOrder } from './order-views';
import { ORDER_MODEL, type OrderRecord } from './order.schema';

// Newest first; the id breaks ties so pages never shuffle.
const NEWEST_FIRST = { createdAt: -1, _id: -1 } as const;
// Orders an export reads from the database at a time.
const EXPORT_BATCH = 500;

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
      ...(isOrderId(query.q) ? [{ _id: new Types.ObjectId(query.q.toLowerCase()) }] : []),
    ];
  }
  return filter;
}

/** The customer's and the admin's reads of stored orders: one, a page, an export. */
@Injectable()
export class OrderReadsService {
  constructor(
    @InjectModel(ORDER_MODEL) private readonly orders: Model<OrderRecord>,
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
  mine(userId: string, query: PageQuery): Promise<Page<Order>> {
    return this.page(live({ user: userId }), query);
  }

  /** Every order (admin), newest first, filtered, one page at a time, with the filtered total. */
  list(query: ListOrdersQuery): Promise<Page<Order>> {
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
  private async page(filter: QueryFilter<OrderRecord>, query: PageQuery): Promise<Page<Order>> {
    const { docs, total } = await findPage(this.orders, filter, {
      select: ORDER_FIELDS,
      sort: NEWEST_FIRST,
      page: pageWindow(query.page, query.limit ?? DEFAULT_PAGE_SIZE),
    });
    return { total, items: docs.map(toOrder) };
  }
}
