import { IsNotEmpty, IsOptional, IsString, MaxLength, ValidateIf } from 'class-validator';
import { IsAcceptablePassword } from '../../passwords/acceptable-password.validator';
import { PASSWORD_MAX_LENGTH } from '../../passwords/password-policy';
import { Trim } from '@shop/service-kit';
import { EmailAddress } from '../../validation/email-address.decorator';

/**
 * What the profile screen may change. Every field is optional; an empty `password` means "keep
 * it" (the screen sends its empty field). Changing the e-mail or the password needs
 * `currentPassword`.
 */
export class UpdateProfileDto {
  @IsOptional()
  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  name?: string;

  @IsOptional()
  @EmailAddress()
  email?: string;

  @ValidateIf((dto: UpdateProfileDto) => dto.password !== undefined && dto.password !== '')
  @IsString()
  @IsAcceptablePassword()
  password?: string;

  @IsOptional()
  @IsString()
  @MaxLength(PASSWORD_MAX_LENGTH)
  currentPassword?: string;
}
