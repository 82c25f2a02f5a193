import { PAYMENT_METHODS, type PaymentMethod, WALLET_DETAILS_MAX_LENGTH } from '@shop/contracts';
import { IsIn, IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { IsMediaUrlOrEmpty, Trim } from '@shop/service-kit';

/** Body of `PUT api/wallet/update-wallet`. */
export class UpdateWalletDto {
  @IsIn(PAYMENT_METHODS, { message: `coin must be one of: ${PAYMENT_METHODS.join(', ')}` })
  coin!: PaymentMethod;

  @Trim()
  @IsString({ message: 'walletId must be a string' })
  @IsNotEmpty({ message: 'walletId is required' })
  @MaxLength(WALLET_DETAILS_MAX_LENGTH)
  walletId!: string;

  @IsMediaUrlOrEmpty()
  qrCode!: string;
}
