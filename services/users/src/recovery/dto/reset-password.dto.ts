import { IsEmail, IsString, Matches, MaxLength } from 'class-validator';
import { NormaliseEmail } from '../../validation/dto-transforms';
import { IsAcceptablePassword } from '../../passwords/acceptable-password.validator';

export class ResetPasswordDto {
  @NormaliseEmail()
  @IsString()
  @MaxLength(254)
  @IsEmail({}, { message: 'email must be a valid email address' })
  email!: string;

  @IsString()
  @Matches(/^\d{6}$/, { message: 'otp must be the 6-digit code from the e-mail' })
  otp!: string;

  @IsString()
  @IsAcceptablePassword()
  newPassword!: string;
}
