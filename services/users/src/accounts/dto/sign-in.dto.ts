import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { PASSWORD_MAX_LENGTH } from '../../passwords/password-policy';
import { EmailAddress } from '../../validation/email-address.decorator';

export class SignInDto {
  @EmailAddress()
  email!: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(PASSWORD_MAX_LENGTH)
  password!: string;
}
