import {
  BadRequestException,
  Body,
  Controller,
  Delete,
  Get,
  Headers,
  HttpCode,
  Param,
  Post,
  Put,
  Query,
  Res,
} from '@nestjs/common';
import {
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENT_REPLAYED_HEADER,
  type Order,
  type OrderDeleted,
  TOTAL_COUNT_HEADER,
} from '@shop/contracts';
import { AdminOnly, Authenticated, type AuthenticatedUser, CurrentUser } from '@shop/service-kit';
import type { FastifyReply } from 'fastify';
import { ListOrdersQuery, PageQuery } from './dto/list-orders.query';
import { PayOrderDto } from './dto/pay-order.dto';
import { PlaceOrderDto } from './dto/place-order.dto';
import { parseIdempotencyKey } from './idempotency-keys.service';
import { OrderPlacement } from './order-placement.service';
import { OrdersService } from './orders.service';

@Controller('api/orders')
export class OrdersController {
  constructor(
    private readonly placement: OrderPlacement,
    private readonly orders: OrdersService,
  ) {}

  @Post()
  @Authenticated()
  async place(
    @CurrentUser() user: AuthenticatedUser,
    @Body() body: PlaceOrderDto,
    @Headers(IDEMPOTENCY_KEY_HEADER) key: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Order> {
    const { order, replayed } = await this.placement.place(user.id, body, parseIdempotencyKey(key));
    if (replayed) void reply.header(IDEMPOTENT_REPLAYED_HEADER, 'true');
    return order;
  }

  @Get('mine')
  @Authenticated()
  async mine(
    @CurrentUser() user: AuthenticatedUser,
    @Query() query: PageQuery,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Order[]> {
    const { orders, total } = await this.orders.mine(user.id, query);
    void reply.header(TOTAL_COUNT_HEADER, String(total));
    return orders;
  }

  @Get()
  @AdminOnly()
  async list(
    @Query() query: ListOrdersQuery,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Order[]> {
    const { orders, total } = await this.orders.list(query);
    void reply.header(TOTAL_COUNT_HEADER, String(total));
    return orders;
  }

  @Get(':id')
  @Authenticated()
  one(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string): Promise<Order> {
    return this.orders.findOne(user, id);
  }

  @Put(':orderId/pay')
  @Authenticated()
  pay(
    @CurrentUser() user: AuthenticatedUser,
    @Param('orderId') id: string,
    @Body() body: PayOrderDto,
  ): Promise<Order> {
    if (body.orderId !== undefined && body.orderId.toLowerCase() !== id.toLowerCase()) {
      throw new BadRequestException('orderId in the body does not match the path');
    }
    return this.orders.pay(user, id, body.receiptUrl);
  }

  @Put('markpaid/:id')
  @AdminOnly()
  markPaid(@Param('id') id: string): Promise<Order> {
    return this.orders.markPaid(id);
  }

  @Put('delivered/:id')
  @AdminOnly()
  deliver(@Param('id') id: string): Promise<Order> {
    return this.orders.deliver(id);
  }

  @Delete('delete/:id')
  @AdminOnly()
  @HttpCode(200)
  delete(@Param('id') id: string): Promise<OrderDeleted> {
    return this.orders.delete(id);
  }
}
