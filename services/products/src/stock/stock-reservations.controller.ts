import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  PRODUCTS_RELEASE,
  PRODUCTS_RESERVE,
  type ReleaseStockReply,
  type ReserveStockReply,
} from '@shop/contracts';
import { ReleaseStockDto, ReserveStockDto } from './dto/stock-request.dto';
import { StockReservationsService } from './stock-reservations.service';

/** The stock commands orders send over NATS request/reply (queue group `products`). */
@Controller()
export class StockReservationsController {
  constructor(private readonly reservations: StockReservationsService) {}

  @MessagePattern(PRODUCTS_RESERVE)
  reserve(@Payload() request: ReserveStockDto): Promise<ReserveStockReply> {
    return this.reservations.reserve(request.reservationId, request.items);
  }

  @MessagePattern(PRODUCTS_RELEASE)
  release(@Payload() request: ReleaseStockDto): Promise<ReleaseStockReply> {
    return this.reservations.release(request.reservationId);
  }
}
