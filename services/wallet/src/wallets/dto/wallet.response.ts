import { ApiProperty } from '@nestjs/swagger';
import { PAYMENT_METHODS, type PaymentMethod, type Wallet } from '@shop/contracts';

/** A wallet as the API answers it, for its OpenAPI document (implements the contract type). */
export class WalletResponse implements Wallet {
  @ApiProperty() _id!: string;
  @ApiProperty({ enum: PAYMENT_METHODS }) paymentMethod!: PaymentMethod;
  @ApiProperty({ description: 'The wallet id, address or handle to pay to' }) paymentDetails!: string;
  @ApiProperty({ description: "QR code image URL (one of the shop's media URLs), or ''" }) qrCode!: string;
}
