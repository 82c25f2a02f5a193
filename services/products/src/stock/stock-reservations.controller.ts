import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  PRODUCTS_RELEASE,
  PRODUCTS_RESERVE,
  type ReleaseStockReply,
  type ReserveStockReply,
} from '@shop/contracts';
import { ReleaseStockDto, ReserveStockDto } from './dto/stock-request.dto';
import { StockReleasingService } from './stock-releasing.service';
import { StockReservingService } from './stock-reserving.service';

/** The stock commands orders send over NATS request/reply (queue group `products`). */
@Controller()
export class StockReservationsController {
  constructor(
    private readonly reserving: StockReservingService,
    private readonly releasing: StockReleasingService,
  ) {}

  @MessagePattern(PRODUCTS_RESERVE)
  reserve(@Payload() request: ReserveStockDto): Promise<ReserveStockReply> {
    return this.reserving.reserve(request.reservationId, request.items);
  }

  @MessagePattern(PRODUCTS_RELEASE)
  release(@Payload() request: ReleaseStockDto): Promise<ReleaseStockReply> {
    return this.releasing.release(request.reservationId);
  }
}
