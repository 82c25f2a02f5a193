import { BadRequestException, HttpException } from '@nestjs/common';
import { describe, expect, it } from 'vitest';
import { refusalOf } from '../testing';

describe('refusalOf (testing entry)', () => {
  it('answers the status and message of the HttpException the work rejects with', async () => {
    expect(await refusalOf(Promise.reject(new BadRequestException('Too large')))).toEqual({
      status: 400,
      message: 'Too large',
    });
    // As requestReply throws a refusal from the other side.
    expect(await refusalOf(Promise.reject(new HttpException({ message: 'Out of stock' }, 409)))).toEqual({
      status: 409,
      message: 'Out of stock',
    });
  });

  it('passes any other error on, and fails when the work is not refused', async () => {
    const other = new Error('disk full');
    await expect(refusalOf(Promise.reject(other))).rejects.toBe(other);
    await expect(refusalOf(Promise.resolve('fine'))).rejects.toThrow('it was not refused');
  });
});
