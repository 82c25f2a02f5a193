import { PAYMENT_METHODS, type PaymentMethod, WALLET_DETAILS_MAX_LENGTH, isMediaUrl } from '@shop/contracts';
import { IsIn, IsNotEmpty, IsString, MaxLength, ValidateBy } from 'class-validator';
import { Trim } from '@shop/service-kit';

/** Body of `PUT api/wallet/update-wallet`. */
export class UpdateWalletDto {
  @IsIn(PAYMENT_METHODS, { message: `coin must be one of: ${PAYMENT_METHODS.join(', ')}` })
  coin!: PaymentMethod;

  @Trim()
  @IsString({ message: 'walletId must be a string' })
  @IsNotEmpty({ message: 'walletId is required' })
  @MaxLength(WALLET_DETAILS_MAX_LENGTH)
  walletId!: string;

  @ValidateBy({
    name: 'isMediaUrlOrEmpty',
    validator: {
      validate: (value: unknown) => value === '' || isMediaUrl(value),
      defaultMessage: () => 'qrCode must be an image uploaded to this shop (/api/media/...) or empty',
    },
  })
  qrCode!: string;
}
