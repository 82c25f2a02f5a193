import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { ProductsModule } from '../products/products.module';
import { OrderEventsController } from './order-events.controller';
import { StockRecoveryService } from './stock-recovery.service';
import { StockReleasingService } from './stock-releasing.service';
import { STOCK_RESERVATION_MODEL, stockReservationSchema } from './stock-reservation.schema';
import { StockReservationsController } from './stock-reservations.controller';
import { StockReservingService } from './stock-reserving.service';

/**
 * Stock taken and given back for orders (`products.reserve`, `products.release`, `order.paid`,
 * `order.delivered`, `order.deleted`).
 *
 * Without multi-document transactions, every stock change is recorded in the very write that makes
 * it: taking a line pushes a hold `{ id: reservationId, quantity }` onto the product in the same
 * conditional `$inc` (never below zero), and giving it back pulls that hold in the same `$inc`,
 * matching only while the hold is there (stock-holds.ts). So each take and each give-back happens
 * exactly once and a crash at any point leaves the products saying exactly who holds what. The
 * reservation document records the state, the reply and the request. Reserving, releasing and
 * selling and closing, and the recovery of what a crash left pending, failing or releasing are one service each.
 * See docs/decisions/0006-catalogue-and-media.md.
 */
@Module({
  imports: [
    ProductsModule,
    MongooseModule.forFeature([{ name: STOCK_RESERVATION_MODEL, schema: stockReservationSchema }]),
  ],
  controllers: [StockReservationsController, OrderEventsController],
  providers: [StockReservingService, StockReleasingService, StockRecoveryService],
})
export class StockModule {}
