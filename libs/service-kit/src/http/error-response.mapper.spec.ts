import { BadRequestException, ConflictException, NotFoundException } from '@nestjs/common';
import mongoose from 'mongoose';
import { describe, expect, it } from 'vitest';
import { mapError } from './error-response.mapper';
import { TooManyRequestsException } from './too-many-requests.exception';

describe('mapError', () => {
  it('keeps the status and message of HTTP exceptions', () => {
    expect(mapError(new NotFoundException('Product Not Found'))).toEqual({
      status: 404,
      body: { message: 'Product Not Found' },
      unexpected: false,
    });
    expect(mapError(new ConflictException('Sorry. Product is out of stock')).status).toBe(409);
  });

  it('answers a 429 with the seconds to wait in Retry-After', () => {
    expect(mapError(new TooManyRequestsException('Too many uploads, please wait', 42))).toEqual({
      status: 429,
      body: { message: 'Too many uploads, please wait' },
      unexpected: false,
      headers: { 'retry-after': '42' },
    });
  });

  it('joins validation messages into one string', () => {
    const mapped = mapError(new BadRequestException(['name should not be empty', 'price must be a number']));
    expect(mapped.body.message).toBe('name should not be empty; price must be a number');
  });

  it('answers 400 for a malformed id', () => {
    const cast = new mongoose.Error.CastError('ObjectId', 'nope', '_id');
    expect(mapError(cast)).toMatchObject({ status: 400, body: { message: 'Invalid _id' } });
  });

  it('answers 409 for a duplicate key', () => {
    expect(mapError(Object.assign(new Error('E11000'), { code: 11000 })).status).toBe(409);
  });

  it('answers 503 while the database cannot be reached', () => {
    const lost = Object.assign(new Error('connection 3 to 127.0.0.1:27017 closed'), {
      name: 'MongoNetworkError',
    });
    expect(mapError(lost)).toEqual({
      status: 503,
      body: { message: 'Service temporarily unavailable, please try again' },
      unexpected: true,
    });
    const selection = new mongoose.Error.MongooseServerSelectionError('Server selection timed out');
    expect(mapError(selection).status).toBe(503);
  });

  it('hides the details of anything unexpected', () => {
    const mapped = mapError(new TypeError('cannot read properties of undefined'));
    expect(mapped).toEqual({ status: 500, body: { message: 'Internal server error' }, unexpected: true });
  });
});
