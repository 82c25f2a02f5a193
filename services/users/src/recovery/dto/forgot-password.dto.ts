import { EmailAddress } from '../../validation/email-address.decorator';

export class ForgotPasswordDto {
  @EmailAddress()
  email!: string;
}
