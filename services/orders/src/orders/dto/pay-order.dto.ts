import { IsMediaUrl } from '@shop/service-kit';
import { IsMongoId, IsOptional } from 'class-validator';

/** Body of `PUT api/orders/{orderId}/pay`: the receipt the customer uploaded. */
export class PayOrderDto {
  /** Sent by the storefront next to the path's id; when present the two must agree. */
  @IsOptional()
  @IsMongoId({ message: 'orderId must be an order id' })
  orderId?: string;

  @IsMediaUrl()
  receiptUrl!: string;
}
