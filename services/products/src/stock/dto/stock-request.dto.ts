import type { ReleaseStockRequest, ReserveStockRequest, StockRequestItem } from '@shop/contracts';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsInt,
  IsMongoId,
  IsString,
  Matches,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';

const RESERVATION_ID = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,99}$/;
const reservationIdMessage = { message: 'reservationId must be 1 to 100 letters, digits, _ . : or -' };

export class StockRequestItemDto implements StockRequestItem {
  @IsString()
  @IsMongoId({ message: 'productId must be a product id' })
  productId!: string;

  @IsInt()
  @Min(1)
  @Max(10_000)
  quantity!: number;
}

export class ReserveStockDto implements ReserveStockRequest {
  @IsString()
  @Matches(RESERVATION_ID, reservationIdMessage)
  reservationId!: string;

  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(100)
  @ValidateNested({ each: true })
  @Type(() => StockRequestItemDto)
  items!: StockRequestItemDto[];
}

export class ReleaseStockDto implements ReleaseStockRequest {
  @IsString()
  @Matches(RESERVATION_ID, reservationIdMessage)
  reservationId!: string;
}
