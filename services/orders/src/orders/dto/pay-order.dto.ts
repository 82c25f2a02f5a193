import { isMediaUrl } from '@shop/contracts';
import { IsMongoId, IsOptional, ValidateBy } from 'class-validator';

/** Body of `PUT api/orders/{orderId}/pay`: the receipt the customer uploaded. */
export class PayOrderDto {
  /** Sent by the storefront next to the path's id; when present the two must agree. */
  @IsOptional()
  @IsMongoId({ message: 'orderId must be an order id' })
  orderId?: string;

  @ValidateBy({
    name: 'isMediaUrl',
    validator: {
      validate: (value: unknown) => isMediaUrl(value),
      defaultMessage: () => 'receiptUrl must be an image uploaded to this shop (/api/media/...)',
    },
  })
  receiptUrl!: string;
}
