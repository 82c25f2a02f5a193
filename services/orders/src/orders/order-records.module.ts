import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { ORDER_MODEL, orderSchema } from './order.schema';

/**
 * The orders collection, for the two modules that write orders: the orders module (checkout and
 * the orders' lifecycle) and the stock module (whose releases mark a deleted order's stock returned).
 */
@Module({
  imports: [MongooseModule.forFeature([{ name: ORDER_MODEL, schema: orderSchema }])],
  exports: [MongooseModule],
})
export class OrderRecordsModule {}
