import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  PRODUCTS_RELEASE,
  PRODUCTS_RESERVE,
  type ReleaseStockReply,
  type ReserveStockReply,
} from '@shop/contracts';
import { FeatureFlags } from '@shop/service-kit';
import { ReleaseStockDto, ReserveStockDto } from './dto/stock-request.dto';
import { StockReleasingService } from './stock-releasing.service';
import { StockReservingService } from './stock-reserving.service';

/** The stock commands orders send over NATS request/reply (queue group `products`). */
@Controller()
export class StockReservationsController {
  constructor(
    private readonly reserving: StockReservingService,
    private readonly releasing: StockReleasingService,
    private readonly flags: FeatureFlags,
  ) {}

  @MessagePattern(PRODUCTS_RESERVE)
  async reserve(@Payload() request: ReserveStockDto): Promise<ReserveStockReply> {
    try {
      return await this.reserving.reserve(request.reservationId, request.items);
    } finally {
      // The fault flag `reservationReplyDelay`: the answer (stock taken, or refused) comes late. Past orders'
      // timeout the order fails, and orders gives back whatever the reservation took.
      await this.flags.delay('reservationReplyDelay');
    }
  }

  @MessagePattern(PRODUCTS_RELEASE)
  release(@Payload() request: ReleaseStockDto): Promise<ReleaseStockReply> {
    return this.releasing.release(request.reservationId);
  }
}
