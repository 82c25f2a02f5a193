import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { natsClientProvider } from '@shop/service-kit';
import { OrderRecordsModule } from '../orders/order-records.module';
import { CatalogStockClient, PRODUCTS_CLIENT } from './catalog-stock.client';
import { PENDING_RESERVATION_MODEL, pendingReservationSchema } from './pending-reservation.schema';
import { StockReleasesService } from './stock-releases.service';

/**
 * The catalogue's stock as the orders service uses it: reserving and releasing it over NATS
 * (request/reply, answered by the products queue group), and giving back, until the catalogue
 * confirms, the stock of deleted orders and of checkouts that stored no order.
 */
@Module({
  imports: [
    OrderRecordsModule,
    MongooseModule.forFeature([{ name: PENDING_RESERVATION_MODEL, schema: pendingReservationSchema }]),
  ],
  providers: [natsClientProvider(PRODUCTS_CLIENT, 'products'), CatalogStockClient, StockReleasesService],
  exports: [CatalogStockClient, StockReleasesService],
})
export class StockModule {}
