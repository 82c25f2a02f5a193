import {
  BadRequestException,
  ConflictException,
  HttpException,
  ServiceUnavailableException,
} from '@nestjs/common';
import { describe, expect, it } from 'vitest';
import { refusalReason } from './shop-metrics';

describe('refusalReason', () => {
  const reasons = { 400: 'invalid', 409: 'out_of_stock' };

  it('names a refusal by its status', () => {
    expect(refusalReason(new ConflictException('gone'), reasons)).toBe('out_of_stock');
    expect(refusalReason(new BadRequestException(), reasons)).toBe('invalid');
  });

  it('keeps the status of a refusal it has no name for', () => {
    expect(refusalReason(new HttpException('teapot', 418), reasons)).toBe('status_418');
  });

  it('calls a 5xx or a plain error unavailable', () => {
    expect(refusalReason(new ServiceUnavailableException(), reasons)).toBe('unavailable');
    expect(refusalReason(new TypeError('boom'), reasons)).toBe('unavailable');
  });
});
