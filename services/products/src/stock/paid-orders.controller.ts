import { Controller, Inject, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { ORDER_PAID, type EventEnvelope, type OrderPaidEvent } from '@shop/contracts';
import {
  type ConsumerHandle,
  JetStreamEvents,
  SERVICE_CONTEXT,
  type ServiceContext,
} from '@shop/service-kit';
import { StockReleasingService } from './stock-releasing.service';

/** The durable JetStream consumer shared by every products replica. */
export const PAID_ORDERS_CONSUMER = 'products-paid-orders';

/**
 * The `order.paid` events of the durable consumer `products-paid-orders` (one delivery per event to
 * one replica; a failure makes JetStream deliver it again). An order whose payment an admin confirmed
 * (status Paid) keeps its stock forever, so its reservation is sold and the products forget its holds
 * (they must not pile up). A customer's own payment (status Pending) changes nothing: an admin may
 * still delete that order, and then its stock comes back. The reservation id is the order id.
 * Selling is idempotent by itself, so a redelivered event needs no processed-events record.
 */
@Controller()
export class PaidOrdersController implements OnApplicationBootstrap, OnModuleDestroy {
  private consumer?: ConsumerHandle;

  constructor(
    private readonly events: JetStreamEvents,
    private readonly releasing: StockReleasingService,
    @Inject(SERVICE_CONTEXT) private readonly context: ServiceContext,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.consumer = await this.events.consume(PAID_ORDERS_CONSUMER, [ORDER_PAID], (event) =>
      this.orderPaid(event),
    );
  }

  async onModuleDestroy(): Promise<void> {
    await this.consumer?.stop();
  }

  /** One `order.paid` event. */
  async orderPaid(event: EventEnvelope): Promise<void> {
    if (event.type !== ORDER_PAID) return;
    const data = (event as OrderPaidEvent).data as Partial<OrderPaidEvent['data']> | undefined;
    if (data?.status !== 'Paid') return;
    if (typeof data.orderId !== 'string' || !data.orderId) {
      this.context.logger.error({ eventId: event.id }, 'ignoring an order.paid event without an order id');
      return;
    }
    await this.releasing.sell(data.orderId);
  }
}
