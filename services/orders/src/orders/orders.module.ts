import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { OutboxRelayProvider } from '@shop/service-kit';
import { StockModule } from '../stock/stock.module';
import { IDEMPOTENCY_KEY_MODEL, idempotencyKeySchema } from './idempotency-key.schema';
import { IdempotencyKeysService } from './idempotency-keys.service';
import { OrderPlacementService } from './order-placement.service';
import { OrderReadsService } from './order-reads.service';
import { OrderRecordsModule } from './order-records.module';
import { ORDER_MODEL } from './order.schema';
import { OrderTransitionsService } from './order-transitions.service';
import { OrdersController } from './orders.controller';

/**
 * Orders: checkout (with its Idempotency-Keys), the customer's and the admin's reads, the state
 * changes, and the order events they queue.
 */
@Module({
  imports: [
    OrderRecordsModule,
    MongooseModule.forFeature([{ name: IDEMPOTENCY_KEY_MODEL, schema: idempotencyKeySchema }]),
    StockModule,
  ],
  controllers: [OrdersController],
  providers: [
    OutboxRelayProvider.forModels(ORDER_MODEL),
    IdempotencyKeysService,
    OrderPlacementService,
    OrderReadsService,
    OrderTransitionsService,
  ],
})
export class OrdersModule {}
