import { ApiProperty } from '@nestjs/swagger';
import { PAYMENT_METHODS, type PaymentMethod } from '@shop/contracts';

/** A wallet as the API answers it: the source of the contract type `Wallet`. */
export class WalletResponse {
  @ApiProperty() _id!: string;
  @ApiProperty({ enum: PAYMENT_METHODS }) paymentMethod!: PaymentMethod;
  @ApiProperty({ description: 'The wallet id, address or handle to pay to' }) paymentDetails!: string;
  @ApiProperty({ description: "QR code image URL (one of the shop's media URLs), or ''" }) qrCode!: string;
}
