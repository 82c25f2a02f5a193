import { ORDER_STATUSES, PAYMENT_METHODS, type OrderStatus, type PaymentMethod } from '@shop/contracts';
import { ApiProperty } from '@nestjs/swagger';

// What the orders API answers: through the OpenAPI document, each class is the source of the contract
// type @shop/contracts names for it (docs/decisions/0022-one-source-per-shape.md).

export class OrderItemResponse {
  @ApiProperty({ description: "The product's id" }) _id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ type: 'integer' }) quantity!: number;
  @ApiProperty({ description: 'Unit price when the order was placed' }) price!: number;
  @ApiProperty({ description: "The product's first image URL, or ''" }) image!: string;
}

export class ShippingAddressResponse {
  @ApiProperty() fullName!: string;
  @ApiProperty() address!: string;
  @ApiProperty() city!: string;
  @ApiProperty() country!: string;
  @ApiProperty() phoneNumber!: string;
}

export class OrderRefundResponse {
  @ApiProperty() _id!: string;
  @ApiProperty({ type: 'integer', minimum: 1, description: 'What was given back, in cents' })
  amountCents!: number;
  @ApiProperty({ description: 'The payment reference of the money given back' }) reference!: string;
  @ApiProperty({ description: 'Why, as the admin wrote it' }) reason!: string;
  @ApiProperty({ format: 'date-time' }) refundedAt!: string;
}

export class OrderResponse {
  @ApiProperty() _id!: string;
  @ApiProperty({ description: 'The id of the user who placed it' }) user!: string;
  @ApiProperty({ type: [OrderItemResponse] }) orderItems!: OrderItemResponse[];
  @ApiProperty({ type: ShippingAddressResponse }) shippingAddress!: ShippingAddressResponse;
  @ApiProperty({ enum: PAYMENT_METHODS }) paymentMethod!: PaymentMethod;
  @ApiProperty() itemsPrice!: number;
  @ApiProperty() taxPrice!: number;
  @ApiProperty({ description: 'The bitcoin discount (0 for other methods)' }) discount!: number;
  @ApiProperty() shippingPrice!: number;
  @ApiProperty() totalPrice!: number;
  @ApiProperty() isPaid!: boolean;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) paidAt!: string | null;
  @ApiProperty() isDelivered!: boolean;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) deliveredAt!: string | null;
  @ApiProperty({ enum: ORDER_STATUSES }) status!: OrderStatus;
  @ApiProperty({ description: "Receipt image URL ('' until the customer pays)" }) paymentReceipt!: string;
  @ApiProperty({
    description:
      'Cancelled (by its customer while Not paid, or by an admin before delivery): its stock went back, and nothing more may happen to it but its deletion. status keeps the payment status it had.',
  })
  isCancelled!: boolean;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) cancelledAt!: string | null;
  @ApiProperty({
    type: 'integer',
    minimum: 0,
    description:
      'What its refunds gave back in all, in cents (never more than totalPrice). Refunded in full before delivery, it is also cancelled.',
  })
  refundedCents!: number;
  @ApiProperty({ type: [OrderRefundResponse], description: 'Its refunds, oldest first' })
  refunds!: OrderRefundResponse[];
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ format: 'date-time' }) updatedAt!: string;
}

export class OrderDeletedResponse {
  @ApiProperty() _id!: string;
  @ApiProperty() message!: string;
  @ApiProperty({
    description: "Whether the order's stock goes back to the shelf (its payment was never confirmed)",
  })
  stockReturned!: boolean;
}
