import { ORDER_LIMITS, ORDER_STATUSES, type OrderStatus } from '@shop/contracts';
import { Type } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { OmitType } from '@nestjs/swagger';
import { QueryBoolean, Trim } from '@shop/service-kit';

export const DEFAULT_PAGE_SIZE = 100;
const MAX_PAGE_SIZE = 500;

/** Paging of a list: `page` from 1, `limit` orders per page (default 100, at most 500). */
export class PageQuery {
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'page must be a whole number' })
  @Min(1)
  page?: number;

  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'limit must be a whole number' })
  @Min(1)
  @Max(MAX_PAGE_SIZE)
  limit?: number;
}

/** Query of the admin list `GET api/orders`. */
export class ListOrdersQuery extends PageQuery {
  @IsOptional()
  @IsIn(ORDER_STATUSES, { message: `status must be one of: ${ORDER_STATUSES.join(', ')}` })
  status?: OrderStatus;

  @IsOptional()
  @QueryBoolean()
  @IsBoolean({ message: 'paid must be true or false' })
  paid?: boolean;

  @IsOptional()
  @QueryBoolean()
  @IsBoolean({ message: 'delivered must be true or false' })
  delivered?: boolean;

  @IsOptional()
  @QueryBoolean()
  @IsBoolean({ message: 'cancelled must be true or false' })
  cancelled?: boolean;

  @IsOptional()
  @Trim()
  @IsString()
  @MaxLength(ORDER_LIMITS.search)
  q?: string;
}

/** Query of the admin export `GET api/orders/export`: the list's filters, without its paging. */
export class OrderFilterQuery extends OmitType(ListOrdersQuery, ['page', 'limit'] as const) {}
