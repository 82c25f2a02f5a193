import { type DynamicModule, Module } from '@nestjs/common';
import { ClientsModule, Transport } from '@nestjs/microservices';
import { MongooseModule } from '@nestjs/mongoose';
import { AuthModule, ServiceKitModule, type ServiceContext } from '@shop/service-kit';
import type { OrdersConfig } from './config/orders.config';
import { IDEMPOTENCY_KEY_MODEL, idempotencyKeySchema } from './orders/idempotency-key.schema';
import { IdempotencyKeys } from './orders/idempotency-keys.service';
import { OrderEventsRelay } from './orders/order-events.relay';
import { OrderPlacement } from './orders/order-placement.service';
import { ORDER_MODEL, orderSchema } from './orders/order.schema';
import { OrdersController } from './orders/orders.controller';
import { OrdersService } from './orders/orders.service';
import { CatalogueStock, PRODUCTS_CLIENT } from './stock/catalogue-stock.client';
import { PENDING_RESERVATION_MODEL, pendingReservationSchema } from './stock/pending-reservation.schema';
import { StockReleasesService } from './stock/stock-releases.service';

@Module({})
export class AppModule {
  static register(context: ServiceContext<OrdersConfig>): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ServiceKitModule.forRoot(context),
        AuthModule.forRoot(context),
        MongooseModule.forFeature([
          { name: ORDER_MODEL, schema: orderSchema },
          { name: IDEMPOTENCY_KEY_MODEL, schema: idempotencyKeySchema },
          { name: PENDING_RESERVATION_MODEL, schema: pendingReservationSchema },
        ]),
        // Commands to the catalogue: request/reply over core NATS, answered by the products queue group.
        ClientsModule.register([
          {
            name: PRODUCTS_CLIENT,
            transport: Transport.NATS,
            options: {
              servers: context.config.NATS_URL.split(','),
              name: `${context.name}-products-client`,
              maxReconnectAttempts: -1,
              reconnectTimeWait: 500,
            },
          },
        ]),
      ],
      controllers: [OrdersController],
      providers: [
        OrderEventsRelay,
        IdempotencyKeys,
        CatalogueStock,
        StockReleasesService,
        OrderPlacement,
        OrdersService,
      ],
    };
  }
}
