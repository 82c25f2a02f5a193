import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { ORDER_PAID, type EventEnvelope, type OrderPaidEvent } from '@shop/contracts';
import {
  type ConsumerHandle,
  JetStreamEvents,
  SERVICE_CONTEXT,
  type ServiceContext,
} from '@shop/service-kit';
import { StockReservationsService } from './stock-reservations.service';

/** The durable JetStream consumer shared by every products replica. */
export const PAID_ORDERS_CONSUMER = 'products-paid-orders';

/**
 * Marks the stock of orders whose payment an admin confirmed (`order.paid`, status Paid) as sold,
 * so the products forget those holds: an order keeps that stock forever, and holds must not pile up
 * on products. A customer's own payment (status Pending) changes nothing: an admin may still delete
 * that order, and then its stock comes back. The reservation id is the order id. Selling is
 * idempotent by itself, so a redelivered event needs no processed-events record.
 */
@Injectable()
export class PaidOrdersConsumer implements OnApplicationBootstrap, OnModuleDestroy {
  private consumer?: ConsumerHandle;

  constructor(
    private readonly events: JetStreamEvents,
    private readonly reservations: StockReservationsService,
    @Inject(SERVICE_CONTEXT) private readonly context: ServiceContext,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.consumer = await this.events.consume(PAID_ORDERS_CONSUMER, [ORDER_PAID], (event) =>
      this.handle(event),
    );
  }

  async onModuleDestroy(): Promise<void> {
    await this.consumer?.stop();
  }

  /** Applies one event; a failure makes JetStream deliver it again. */
  async handle(event: EventEnvelope): Promise<void> {
    if (event.type !== ORDER_PAID) return;
    const data = (event as OrderPaidEvent).data as Partial<OrderPaidEvent['data']> | undefined;
    if (data?.status !== 'Paid') return;
    if (typeof data.orderId !== 'string' || !data.orderId) {
      this.context.logger.error({ eventId: event.id }, 'ignoring an order.paid event without an order id');
      return;
    }
    await this.reservations.sell(data.orderId);
  }
}
