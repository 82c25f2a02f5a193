import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsEmail, IsString, MaxLength } from 'class-validator';

/**
 * An e-mail address field: trimmed and lower-cased (anything that is not a string is left to the
 * validators), at most 254 characters, a valid address.
 */
export const EmailAddress = (): PropertyDecorator =>
  // Applied in the order written on a property (last first), so the validators report as before.
  applyDecorators(
    IsEmail({}, { message: 'email must be a valid email address' }),
    MaxLength(254),
    IsString(),
    Transform(({ value }: { value: unknown }) =>
      typeof value === 'string' ? value.trim().toLowerCase() : value,
    ),
  );
