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
  StreamableFile,
} from '@nestjs/common';
import {
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENT_REPLAYED_HEADER,
  type Order,
  type OrderDeleted,
} from '@shop/contracts';
import {
  ApiCreatedResponse,
  ApiHeader,
  ApiOkResponse,
  ApiOperation,
  ApiProduces,
  ApiTags,
} from '@nestjs/swagger';
import {
  AdminOnly,
  ApiErrors,
  ApiRecordOperation,
  Authenticated,
  type AuthenticatedUser,
  CurrentUser,
  type Page,
  PagedList,
} from '@shop/service-kit';
import type { FastifyReply } from 'fastify';
import { ListOrdersQuery, OrderFilterQuery, PageQuery } from './dto/list-orders.query';
import { RefundOrderDto } from './dto/refund-order.dto';
import { PayOrderDto } from './dto/pay-order.dto';
import { OrderDeletedResponse, OrderResponse } from './dto/order.response';
import { PlaceOrderDto } from './dto/place-order.dto';
import { parseIdempotencyKey } from './idempotency-keys.service';
import { OrderPlacementService } from './order-placement.service';
import { OrderReadsService } from './order-reads.service';
import { OrderTransitionsService } from './order-transitions.service';

@ApiTags('orders')
@Controller('api/orders')
export class OrdersController {
  constructor(
    private readonly placement: OrderPlacementService,
    private readonly reads: OrderReadsService,
    private readonly transitions: OrderTransitionsService,
  ) {}

  @Post()
  @Authenticated()
  @ApiOperation({
    summary: 'Place an order',
    description:
      'Prices the order on the server and reserves its stock. A retry with the same Idempotency-Key answers the order the first request placed.',
  })
  @ApiHeader({
    name: IDEMPOTENCY_KEY_HEADER,
    required: false,
    description: 'Up to 128 visible ASCII characters; a retry with the same key places no second order',
  })
  @ApiCreatedResponse({
    type: OrderResponse,
    description: 'The order placed (or, for a retry, the one placed first)',
    headers: {
      [IDEMPOTENT_REPLAYED_HEADER]: {
        description: "'true' when the answer is the order an earlier request with the same key placed",
        schema: { type: 'string', enum: ['true'] },
      },
    },
  })
  // 404: a product of the order is not in the catalog (products.reserve's refusal); 422: the key was
  // used for another order, or its first request is still being placed (IdempotencyKeysService).
  @ApiErrors(404, 409, 422)
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
  @ApiOperation({ summary: "The signed-in user's orders, newest first, one page at a time" })
  @PagedList(OrderResponse)
  mine(@CurrentUser() user: AuthenticatedUser, @Query() query: PageQuery): Promise<Page<Order>> {
    return this.reads.mine(user.id, query);
  }

  @Get()
  @AdminOnly()
  @ApiOperation({ summary: 'Every order, filtered and paged (admins)' })
  @PagedList(OrderResponse)
  list(@Query() query: ListOrdersQuery): Promise<Page<Order>> {
    return this.reads.list(query);
  }

  @Get('export')
  @AdminOnly()
  @ApiOperation({
    summary: 'The orders the filters match, as a CSV file (admins)',
    description:
      "The same filters as the list, without paging: every matching order, newest first. RFC 4180 CSV with a header row, in UTF-8 with a byte order mark; a cell a shopper typed that a spreadsheet would run as a formula (starting with =, +, -, @, a tab or a carriage return) starts with a ' instead.",
  })
  @ApiProduces('text/csv')
  @ApiOkResponse({
    description: 'The CSV file, written as it is read',
    schema: { type: 'string' },
    headers: {
      'Content-Disposition': {
        schema: { type: 'string', example: 'attachment; filename="orders-2026-11-28.csv"' },
      },
    },
  })
  async exportCsv(@Query() query: OrderFilterQuery): Promise<StreamableFile> {
    const day = new Date().toISOString().slice(0, 10);
    return new StreamableFile(await this.reads.exportCsv(query), {
      type: 'text/csv; charset=utf-8',
      disposition: `attachment; filename="orders-${day}.csv"`,
    });
  }

  @Get(':id')
  @Authenticated()
  @ApiRecordOperation({ summary: 'One order: its owner or an admin' }, OrderResponse)
  one(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string): Promise<Order> {
    return this.reads.findOne(user, id);
  }

  @Put(':orderId/pay')
  @Authenticated()
  @ApiRecordOperation(
    { summary: "Pay an order: the customer's uploaded receipt; the order becomes Pending" },
    OrderResponse,
    409,
  )
  pay(
    @CurrentUser() user: AuthenticatedUser,
    @Param('orderId') id: string,
    @Body() body: PayOrderDto,
  ): Promise<Order> {
    if (body.orderId !== undefined && body.orderId.toLowerCase() !== id.toLowerCase()) {
      throw new BadRequestException('orderId in the body does not match the path');
    }
    return this.transitions.pay(user, id, body.receiptUrl);
  }

  @Put(':orderId/cancel')
  @Authenticated()
  @ApiRecordOperation(
    {
      summary: 'Cancel an order: its customer while it is Not paid, an admin any order not delivered',
      description:
        "The order is cancelled (isCancelled, cancelledAt; status keeps its payment status) and its stock goes back to the shelf, once. A cancelled order cannot be paid, marked paid, delivered or cancelled again (409 'Order is cancelled'); a customer's paid order is the shop's to cancel (409).",
    },
    OrderResponse,
    409,
  )
  cancel(@CurrentUser() user: AuthenticatedUser, @Param('orderId') id: string): Promise<Order> {
    return this.transitions.cancel(user, id);
  }

  @Post(':orderId/refunds')
  @AdminOnly()
  @HttpCode(201)
  @ApiRecordOperation(
    {
      summary: 'Record a refund of a paid order (admins)',
      description:
        "Money given back by hand, whole or in part, in cents: at most what is left of the order's total (409 with the amount left), one refund per payment reference on an order (409), only on a Paid order (409 'Only a paid order can be refunded'). The refund that completes the total of an order not delivered also cancels it, and its stock goes back to the shelf, once.",
    },
    { status: 201, type: OrderResponse },
    409,
  )
  refund(
    @CurrentUser() admin: AuthenticatedUser,
    @Param('orderId') id: string,
    @Body() body: RefundOrderDto,
  ): Promise<Order> {
    return this.transitions.refund(admin, id, body);
  }

  @Put('markpaid/:id')
  @AdminOnly()
  @ApiRecordOperation({ summary: 'Confirm the payment of an order (admins)' }, OrderResponse, 409)
  markPaid(@CurrentUser() admin: AuthenticatedUser, @Param('id') id: string): Promise<Order> {
    return this.transitions.markPaid(admin, id);
  }

  @Put('delivered/:id')
  @AdminOnly()
  @ApiRecordOperation({ summary: 'Mark a paid order delivered (admins)' }, OrderResponse, 409)
  deliver(@CurrentUser() admin: AuthenticatedUser, @Param('id') id: string): Promise<Order> {
    return this.transitions.deliver(admin, id);
  }

  @Delete('delete/:id')
  @AdminOnly()
  @HttpCode(200)
  @ApiRecordOperation(
    { summary: 'Delete an order (admins); unpaid stock goes back to the shelf' },
    OrderDeletedResponse,
  )
  delete(@CurrentUser() admin: AuthenticatedUser, @Param('id') id: string): Promise<OrderDeleted> {
    return this.transitions.delete(admin, id);
  }
}
