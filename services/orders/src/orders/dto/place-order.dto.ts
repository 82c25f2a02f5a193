import { ORDER_LIMITS, PAYMENT_METHODS, PHONE_NUMBER_PATTERN, type PaymentMethod } from '@shop/contracts';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayNotEmpty,
  IsArray,
  IsIn,
  IsInt,
  IsMongoId,
  IsNotEmpty,
  IsObject,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { DecoratorStack, Trim } from '@shop/service-kit';

/** One cart line: only the product and how many count; a client's name, price or image are dropped. */
export class OrderLineDto {
  @IsMongoId({ message: '_id must be the id of a product' })
  _id!: string;

  @IsInt({ message: 'quantity must be a whole number' })
  @Min(1, { message: 'quantity must be at least 1' })
  @Max(ORDER_LIMITS.maxQuantity, { message: `quantity must be at most ${ORDER_LIMITS.maxQuantity}` })
  quantity!: number;

  // What the cart shows of the line; the call carries it (docs/product/calls.md, "Orders"), and
  // whitelisting drops it: the server takes name, price and image from the catalogue.
  @ApiPropertyOptional({ description: 'Ignored: the catalogue names the product' }) name?: string;
  @ApiPropertyOptional({ description: 'Ignored: the catalogue prices the product' }) price?: number;
  @ApiPropertyOptional({ description: 'Ignored: the catalogue has the image' }) image?: string;
}

/** A required line of the address, trimmed, of at most `max` characters. */
const AddressLine = (max: number): PropertyDecorator =>
  DecoratorStack(Trim(), IsString(), IsNotEmpty({ message: '$property is required' }), MaxLength(max));

export class ShippingAddressDto {
  @AddressLine(ORDER_LIMITS.fullName)
  fullName!: string;

  @AddressLine(ORDER_LIMITS.address)
  address!: string;

  @AddressLine(ORDER_LIMITS.city)
  city!: string;

  @AddressLine(ORDER_LIMITS.country)
  country!: string;

  @Trim()
  @IsString()
  @IsNotEmpty({ message: 'phoneNumber is required' })
  // The shipping form checks the same pattern before sending.
  @Matches(PHONE_NUMBER_PATTERN, { message: 'phoneNumber must be a phone number' })
  @MaxLength(ORDER_LIMITS.phoneNumber)
  phoneNumber!: string;
}

const PRICED_BY_THE_SERVER = { description: 'Ignored: the server prices the order' };

/**
 * Body of `POST api/orders`. Only product ids and quantities count: whitelisting drops the names,
 * prices and totals the client sends, and the server prices the order from the catalogue.
 */
export class PlaceOrderDto {
  @IsArray({ message: 'orderItems must be a list' })
  @ArrayNotEmpty({ message: 'orderItems must not be empty' })
  // Before merging lines for the same product; ORDER_LIMITS.maxLines holds after merging.
  @ArrayMaxSize(ORDER_LIMITS.maxLines * 4)
  @ValidateNested({ each: true })
  @Type(() => OrderLineDto)
  orderItems!: OrderLineDto[];

  @IsObject({ message: 'shippingAddress is required' })
  @ValidateNested()
  @Type(() => ShippingAddressDto)
  shippingAddress!: ShippingAddressDto;

  @IsIn(PAYMENT_METHODS, { message: `paymentMethod must be one of: ${PAYMENT_METHODS.join(', ')}` })
  paymentMethod!: PaymentMethod;

  // The cart's totals; the call carries them (docs/product/calls.md, "Orders"), and whitelisting drops them.
  @ApiPropertyOptional(PRICED_BY_THE_SERVER) itemsPrice?: number;
  @ApiPropertyOptional(PRICED_BY_THE_SERVER) taxPrice?: number;
  @ApiPropertyOptional(PRICED_BY_THE_SERVER) shippingPrice?: number;
  @ApiPropertyOptional(PRICED_BY_THE_SERVER) totalPrice?: number;
}
