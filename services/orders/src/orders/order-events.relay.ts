import { Inject, Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import {
  JetStreamEvents,
  OutboxRelayProvider,
  SERVICE_CONTEXT,
  type ServiceContext,
} from '@shop/service-kit';
import type { Model } from 'mongoose';
import { ORDER_MODEL, type OrderRecord } from './order.schema';

/**
 * Publishes the events queued in orders (`order.created`, `order.paid`, `order.delivered`,
 * `order.deleted`), retrying while NATS is away: they arrive once it is back.
 */
@Injectable()
export class OrderEventsRelay extends OutboxRelayProvider {
  constructor(
    @InjectModel(ORDER_MODEL) orders: Model<OrderRecord>,
    events: JetStreamEvents,
    @Inject(SERVICE_CONTEXT) context: ServiceContext,
  ) {
    super([orders], events, context);
  }
}
