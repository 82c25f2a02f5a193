import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { IsAcceptablePassword } from '../../passwords/acceptable-password.validator';
import { Trim } from '@shop/service-kit';
import { EmailAddress } from '../../validation/email-address.decorator';

export class SignUpDto {
  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  name!: string;

  @EmailAddress()
  email!: string;

  @IsString()
  @IsAcceptablePassword()
  password!: string;
}
