import { REFUND_AMOUNT } from '@shop/contracts';
import { Trim } from '@shop/service-kit';
import { IsInt, IsNotEmpty, IsString, MaxLength, Min } from 'class-validator';

/** Body of `POST api/orders/{orderId}/refunds`: money an admin gave back on a paid order, in cents. */
export class RefundOrderDto {
  @IsInt({ message: REFUND_AMOUNT })
  @Min(1, { message: REFUND_AMOUNT })
  amountCents!: number;

  /** The payment reference of the money given back (one refund per reference on an order). */
  @Trim()
  @IsString()
  @IsNotEmpty({ message: 'A refund needs its payment reference' })
  @MaxLength(100)
  reference!: string;

  @Trim()
  @IsString()
  @IsNotEmpty({ message: 'A refund needs a reason' })
  @MaxLength(500)
  reason!: string;
}
