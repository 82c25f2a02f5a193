import {
  BadRequestException,
  ConflictException,
  HttpException,
  Inject,
  Injectable,
  type OnModuleDestroy,
  ServiceUnavailableException,
} from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import {
  NEW_ORDER_STATE,
  ORDER_CREATED,
  type Order,
  type OrderCreatedEvent,
  type OrderItem,
  type PaymentMethod,
  type ReservedItem,
  type StockRequestItem,
  priceOrder,
} from '@shop/contracts';
import {
  FeatureFlags,
  GroupCommit,
  OutboxRelayProvider,
  SERVICE_CONTEXT,
  type ServiceContext,
  insertEach,
  isDuplicateKey,
  newEvent,
  outboxPush,
  refusalReason,
  shopCounter,
} from '@shop/service-kit';
import { type Model, Types } from 'mongoose';
import type { OrdersConfig } from '../config/orders.config';
import { CatalogStockClient } from '../stock/catalog-stock.client';
import { StockReleasesService } from '../stock/stock-releases.service';
import type { PlaceOrderDto } from './dto/place-order.dto';
import { type ClaimedKey, IdempotencyKeysService, requestFingerprint } from './idempotency-keys.service';
import { OrderLinesError, mergeOrderLines } from './order-lines';
import { ORDER_FIELDS, toOrder } from './order-views';
import { ORDER_MODEL, type OrderRecord } from './order.schema';

export interface PlacedOrder {
  order: Order;
  /** True when a retry with the same Idempotency-Key answered the order placed the first time. */
  replayed: boolean;
}

// Keeps the insert clear of the moment the recovery pass may start releasing the reservation.
const SAFETY_MARGIN_MS = 5_000;

/** One checkout being placed: who, under which order id, what (merged lines), and its key's claim if any. */
interface Checkout {
  userId: string;
  orderId: Types.ObjectId;
  items: StockRequestItem[];
  request: PlaceOrderDto;
  claim?: ClaimedKey;
}

/** Why a checkout placed no order, by its answer's status (`shop_orders_refused_total{reason}`). */
const REFUSAL_REASONS = { 400: 'invalid', 404: 'unknown_product', 409: 'out_of_stock' };

/**
 * Checkout: merge the lines, choose the order id, take the stock from the catalogue under that id,
 * price the order from the catalogue's answer and store it with its `order.created` event. A
 * pending-reservation record written before the reserve makes sure the stock goes back if the order
 * is never stored, whether the checkout failed or this process died halfway.
 */
@Injectable()
export class OrderPlacementService implements OnModuleDestroy {
  private readonly placed = shopCounter(
    'shop.orders.placed',
    'Orders placed (a replayed retry is not counted)',
  );
  private readonly refused = shopCounter('shop.orders.refused', 'Checkouts that placed no order, by reason');
  // Orders stored at the same time go out in one insert: on the embedded database every write command
  // waits for the one before it (docs/performance.md). The record is complete as built by `newOrder`
  // (every field, its timestamps and its event), so it goes to the driver as is: no document to hydrate.
  private readonly inserts = new GroupCommit<OrderRecord, void>(
    async (records, answer) => {
      const failed = await insertEach(this.orders.collection, records);
      records.forEach((_, index) => {
        const error = failed.get(index);
        answer(index, error === undefined ? undefined : Promise.reject(error as Error));
      });
    },
    { name: 'order-inserts' },
  );

  constructor(
    @InjectModel(ORDER_MODEL) private readonly orders: Model<OrderRecord>,
    private readonly keys: IdempotencyKeysService,
    private readonly stock: CatalogStockClient,
    private readonly releases: StockReleasesService,
    private readonly relay: OutboxRelayProvider,
    @Inject(SERVICE_CONTEXT) private readonly context: ServiceContext<OrdersConfig>,
    private readonly flags: FeatureFlags,
  ) {}

  async onModuleDestroy(): Promise<void> {
    await this.inserts.flushed();
  }

  /** How long a retry waits for the first request under its key before taking over from it. */
  private get inFlightMs(): number {
    return 2 * this.context.config.NATS_REQUEST_TIMEOUT_MS + 5_000;
  }

  async place(userId: string, request: PlaceOrderDto, idempotencyKey?: string): Promise<PlacedOrder> {
    let items: StockRequestItem[];
    try {
      items = mergeOrderLines(request.orderItems);
    } catch (error) {
      if (!(error instanceof OrderLinesError)) throw error;
      this.refused.add(1, { reason: 'invalid' });
      throw new BadRequestException(error.message);
    }
    // The fault flag `orderPlacementFailure`: this share of orders is refused before anything is claimed or taken.
    if (await this.flags.fails('orderPlacementFailure')) {
      this.refused.add(1, { reason: 'unavailable' });
      throw new ServiceUnavailableException('Orders cannot be taken right now, please try again');
    }
    if (!idempotencyKey) {
      return {
        order: await this.placeNew({ userId, orderId: new Types.ObjectId(), items, request }),
        replayed: false,
      };
    }

    const fingerprint = requestFingerprint(items, request.shippingAddress, request.paymentMethod);
    const claim = await this.keys.claim(userId, idempotencyKey, fingerprint).catch((error: unknown) => {
      if (error instanceof HttpException) throw error;
      this.context.logger.error({ err: error }, 'cannot claim an idempotency key');
      throw new ServiceUnavailableException('The order could not be saved, please try again');
    });
    const checkout: Checkout = { userId, orderId: claim.orderId, items, request, claim };
    if (claim.fresh) return { order: await this.placeNew(checkout), replayed: false };

    const earlier = await this.orders
      .findById(claim.orderId)
      .select(`${ORDER_FIELDS} deletedAt`)
      .lean<OrderRecord>();
    if (earlier?.deletedAt) {
      throw new ConflictException('The order placed with this Idempotency-Key was deleted');
    }
    if (earlier) return { order: toOrder(earlier), replayed: true };
    if (Date.now() - claim.claimedAt.getTime() < this.inFlightMs) {
      throw new ConflictException(
        'An order with this Idempotency-Key is still being placed, please retry shortly',
      );
    }
    // The first request died between its reserve and its insert. The reserve is idempotent by the
    // order id, so finishing the job under the same id takes no more stock than it already holds.
    return { order: await this.placeNew(checkout), replayed: false };
  }

  /** Places a new order, counting it placed or refused (a refusal by the catalogue keeps its reason). */
  private async placeNew(checkout: Checkout): Promise<Order> {
    try {
      const order = await this.store(checkout);
      this.placed.add(1, { payment_method: checkout.request.paymentMethod });
      return order;
    } catch (error) {
      this.refused.add(1, { reason: refusalReason(error, REFUSAL_REASONS) });
      throw error;
    }
  }

  private async store(checkout: Checkout): Promise<Order> {
    const { userId, orderId, items, request } = checkout;
    let due: Date;
    try {
      due = await this.releases.expectOrder(orderId);
    } catch (error) {
      await this.forgetKey(checkout);
      this.context.logger.error({ err: error }, 'cannot record a checkout');
      throw new ServiceUnavailableException('The order could not be saved, please try again');
    }

    let reserved: ReservedItem[];
    try {
      reserved = await this.stock.reserve(orderId.toHexString(), items);
    } catch (error) {
      await this.forgetKey(checkout);
      // A refusal (out of stock, unknown product) took nothing; silence may have taken stock.
      if (error instanceof HttpException && error.getStatus() < 500)
        await this.releases.nothingReserved(orderId);
      else await this.releases.releaseSoon(orderId);
      throw error;
    }

    let stored: OrderRecord;
    try {
      // Past this point the recovery pass may already be giving the stock back.
      if (Date.now() > due.getTime() - SAFETY_MARGIN_MS) {
        throw new ServiceUnavailableException('Placing the order took too long, please try again');
      }
      const record = this.newOrder(userId, orderId, reserved, request, new Date());
      const event: OrderCreatedEvent = newEvent(ORDER_CREATED, {
        orderId: orderId.toHexString(),
        userId,
        items: record.orderItems.map((item) => ({
          productId: item._id,
          quantity: item.quantity,
          price: item.price,
        })),
        paymentMethod: record.paymentMethod,
        totalPrice: record.totalPrice,
      });
      // The event goes into the new document itself: the order and its event are one write.
      stored = { ...record, outbox: [outboxPush(event).$push.outbox] };
      await this.inserts.add(stored);
    } catch (error) {
      if (isDuplicateKey(error)) {
        // A concurrent retry under the same key stored this very order first.
        const stored = await this.orders.findById(orderId).select(ORDER_FIELDS).lean<OrderRecord>();
        if (stored) return toOrder(stored);
      }
      await this.forgetKey(checkout);
      await this.releases.releaseSoon(orderId);
      if (error instanceof HttpException) throw error;
      this.context.logger.error({ err: error, orderId: orderId.toHexString() }, 'storing an order failed');
      throw new ServiceUnavailableException('The order could not be saved, please try again');
    }
    this.relay.nudge(orderId);
    // Not waited for: the order owns its stock already, and a record left behind is cleared by the
    // release pass, which finds the order (orderStored logs its own failure).
    void this.releases.orderStored(orderId);
    // Answered from what was written (with its timestamps): reading it back cost a query per order.
    return toOrder(stored);
  }

  private newOrder(
    userId: string,
    orderId: Types.ObjectId,
    reserved: ReservedItem[],
    request: PlaceOrderDto,
    at: Date,
  ): OrderRecord {
    const orderItems: OrderItem[] = reserved.map((item) => ({
      _id: item.productId,
      name: item.name,
      quantity: item.quantity,
      price: item.price,
      image: item.image,
    }));
    const paymentMethod: PaymentMethod = request.paymentMethod;
    const { fullName, address, city, country, phoneNumber } = request.shippingAddress;
    return {
      _id: orderId,
      user: userId,
      orderItems,
      shippingAddress: { fullName, address, city, country, phoneNumber },
      paymentMethod,
      ...priceOrder(orderItems, paymentMethod),
      ...NEW_ORDER_STATE,
      refunds: [],
      deletedAt: null,
      stockRelease: 'none',
      createdAt: at,
      updatedAt: at,
    };
  }

  /**
   * Frees the Idempotency-Key of a checkout that will not produce an order, before its stock is
   * given back: no retry may finish an order whose reservation is being released.
   */
  private async forgetKey({ orderId, claim }: Checkout): Promise<void> {
    if (!claim) return;
    await this.keys
      .forget(claim)
      .catch((error: unknown) =>
        this.context.logger.warn(
          { err: error, orderId: orderId.toHexString() },
          'freeing an idempotency key failed',
        ),
      );
  }
}
