import { IsEmail, IsString, MaxLength } from 'class-validator';
import { NormaliseEmail } from '../../validation/dto-transforms';

export class ForgotPasswordDto {
  @NormaliseEmail()
  @IsString()
  @MaxLength(254)
  @IsEmail({}, { message: 'email must be a valid email address' })
  email!: string;
}
