import { Inject, Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import {
  JetStreamEvents,
  OutboxRelayProvider,
  SERVICE_CONTEXT,
  type ServiceContext,
} from '@shop/service-kit';
import type { Model } from 'mongoose';
import { PRODUCT_MODEL, type ProductRecord } from './product.schema';

/** Publishes the events queued in products (`product.updated`, `product.deleted`). */
@Injectable()
export class ProductEventsRelay extends OutboxRelayProvider {
  constructor(
    @InjectModel(PRODUCT_MODEL) products: Model<ProductRecord>,
    events: JetStreamEvents,
    @Inject(SERVICE_CONTEXT) context: ServiceContext,
  ) {
    super([products], events, context);
  }
}
