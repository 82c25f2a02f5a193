import { IsString, Matches } from 'class-validator';
import { EmailAddress } from '../../validation/email-address.decorator';
import { IsAcceptablePassword } from '../../passwords/acceptable-password.validator';

export class ResetPasswordDto {
  @EmailAddress()
  email!: string;

  @IsString()
  @Matches(/^\d{6}$/, { message: 'otp must be the 6-digit code from the e-mail' })
  otp!: string;

  @IsString()
  @IsAcceptablePassword()
  newPassword!: string;
}
