import { BadRequestException } from '@nestjs/common';
import { Type } from 'class-transformer';
import { IsNotEmpty, IsString, Matches, MaxLength, ValidateNested } from 'class-validator';
import { describe, expect, it } from 'vitest';
import { requestValidationPipe } from '../bootstrap/bootstrap-service';
import { BODY_NOT_OBJECT_MESSAGE } from './request-validation.pipe';

class Address {
  @IsNotEmpty({ message: 'phoneNumber is required' })
  @IsString()
  @Matches(/^\+?[0-9 ]+$/, { message: 'phoneNumber must be a phone number' })
  @MaxLength(12)
  phoneNumber!: string;
}

class Order {
  @IsNotEmpty({ message: 'shippingAddress is required' })
  @ValidateNested()
  @Type(() => Address)
  shippingAddress!: Address;
}

async function messagesFor(body: unknown): Promise<string[]> {
  const refusal = await requestValidationPipe()
    .transform(body, { type: 'body', metatype: Order })
    .then(
      () => undefined,
      (error: unknown) => error,
    );
  expect(refusal).toBeInstanceOf(BadRequestException);
  return ((refusal as BadRequestException).getResponse() as { message: string[] }).message;
}

describe('request validation messages', () => {
  it('reports a missing field once, as required', async () => {
    expect(await messagesFor({ shippingAddress: {} })).toEqual(['shippingAddress.phoneNumber is required']);
    expect(await messagesFor({ shippingAddress: { phoneNumber: '' } })).toEqual([
      'shippingAddress.phoneNumber is required',
    ]);
    expect(await messagesFor({})).toEqual(['shippingAddress is required']);
  });

  it('still reports every rule a present but wrong value breaks', async () => {
    expect(await messagesFor({ shippingAddress: { phoneNumber: 'call me maybe, soon' } })).toEqual([
      'shippingAddress.phoneNumber must be shorter than or equal to 12 characters',
      'shippingAddress.phoneNumber must be a phone number',
    ]);
    expect(await messagesFor({ shippingAddress: { phoneNumber: { $ne: null } } })).toEqual(
      expect.arrayContaining(['shippingAddress.phoneNumber must be a string']),
    );
  });
});

describe('request bodies', () => {
  it.each([null, undefined, [], [{ shippingAddress: {} }], 'text', 12, true])(
    'refuses %j where a DTO expects an object',
    async (body) => {
      await expect(
        requestValidationPipe().transform(body, { type: 'body', metatype: Order }),
      ).rejects.toThrow(BODY_NOT_OBJECT_MESSAGE);
    },
  );
});
