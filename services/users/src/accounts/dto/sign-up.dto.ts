import { IsEmail, IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { IsAcceptablePassword } from '../../passwords/acceptable-password.validator';
import { NormaliseEmail, Trim } from '../../validation/dto-transforms';

export class SignUpDto {
  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  name!: string;

  @NormaliseEmail()
  @IsString()
  @MaxLength(254)
  @IsEmail({}, { message: 'email must be a valid email address' })
  email!: string;

  @IsString()
  @IsAcceptablePassword()
  password!: string;
}
