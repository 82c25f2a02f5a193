import { Controller, Inject, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import {
  ORDER_DELETED,
  ORDER_DELIVERED,
  ORDER_PAID,
  type EventEnvelope,
  type OrderDeletedEvent,
  type OrderDeliveredEvent,
  type OrderPaidEvent,
} from '@shop/contracts';
import {
  type ConsumerHandle,
  FeatureFlags,
  JetStreamEvents,
  SERVICE_CONTEXT,
  type ServiceContext,
} from '@shop/service-kit';
import { StockReleasingService } from './stock-releasing.service';

/** The durable JetStream consumers shared by every products replica. */
export const PAID_ORDERS_CONSUMER = 'products-paid-orders';
export const CLOSED_ORDERS_CONSUMER = 'products-closed-orders';

/**
 * What the orders' events do to their stock, through two durable consumers (one delivery per event to
 * one replica; a failure makes JetStream deliver it again). The reservation id is the order id. Selling
 * and closing are idempotent by themselves, so a redelivered event needs no processed-events record.
 * - `products-paid-orders`, `order.paid`: an order whose payment an admin confirmed (status Paid) keeps
 *   its stock unless it is cancelled before delivery, so its reservation is sold and the products keep
 *   its holds. A customer's own payment (status Pending) changes nothing: an admin may still delete that
 *   order, and then its stock comes back.
 * - `products-closed-orders`, `order.delivered` and `order.deleted`: a delivered order's stock left the
 *   shop, and so did a paid order's that an admin deleted (`wasPaid`, not `stockReturned`): its
 *   reservation is closed and the products forget its holds. An unpaid order deleted gives its stock
 *   back through orders' release instead. The two consumers keep no order between them: a delivery
 *   heard before its payment closes the reservation all the same (decision 0024).
 */
@Controller()
export class OrderEventsController implements OnApplicationBootstrap, OnModuleDestroy {
  private consumers: ConsumerHandle[] = [];

  constructor(
    private readonly events: JetStreamEvents,
    private readonly releasing: StockReleasingService,
    @Inject(SERVICE_CONTEXT) private readonly context: ServiceContext,
    private readonly flags: FeatureFlags,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.consumers.push(
      await this.events.consume(PAID_ORDERS_CONSUMER, [ORDER_PAID], (event) =>
        this.lagging(() => this.orderPaid(event)),
      ),
      await this.events.consume(CLOSED_ORDERS_CONSUMER, [ORDER_DELIVERED, ORDER_DELETED], (event) =>
        this.lagging(() => this.orderClosed(event)),
      ),
    );
  }

  async onModuleDestroy(): Promise<void> {
    await Promise.all(this.consumers.map((consumer) => consumer.stop()));
  }

  /** The fault flag `productsConsumerLag`: each event waits before it is handled, and so acknowledged. */
  private async lagging(handle: () => Promise<void>): Promise<void> {
    await this.flags.delay('productsConsumerLag');
    await handle();
  }

  /** One `order.paid` event. */
  async orderPaid(event: EventEnvelope): Promise<void> {
    if (event.type !== ORDER_PAID) return;
    const data = (event as OrderPaidEvent).data as Partial<OrderPaidEvent['data']> | undefined;
    if (data?.status !== 'Paid') return;
    const orderId = this.orderIdOf(event, data.orderId);
    if (orderId) await this.releasing.sell(orderId);
  }

  /** One `order.delivered` or `order.deleted` event. */
  async orderClosed(event: EventEnvelope): Promise<void> {
    let orderId: string | undefined;
    if (event.type === ORDER_DELIVERED) {
      orderId = this.orderIdOf(event, (event as OrderDeliveredEvent).data?.orderId);
    } else if (event.type === ORDER_DELETED) {
      const data = (event as OrderDeletedEvent).data as Partial<OrderDeletedEvent['data']> | undefined;
      if (data?.wasPaid !== true || data.stockReturned !== false) return;
      orderId = this.orderIdOf(event, data.orderId);
    }
    if (orderId) await this.releasing.close(orderId);
  }

  private orderIdOf(event: EventEnvelope, orderId: unknown): string | undefined {
    if (typeof orderId === 'string' && orderId) return orderId;
    this.context.logger.error(
      { eventId: event.id, type: event.type },
      'ignoring an order event without an order id',
    );
    return undefined;
  }
}
