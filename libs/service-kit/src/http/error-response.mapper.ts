import { HttpException, HttpStatus } from '@nestjs/common';
import type { ErrorResponse } from '@shop/contracts';
import mongoose from 'mongoose';
import { isDuplicateKey } from '../mongo/duplicate-key';
import { TooManyRequestsException } from './too-many-requests.exception';

export interface MappedError {
  status: number;
  body: ErrorResponse;
  /** True when the failure is ours, not the caller's: worth an error log with the stack. */
  unexpected: boolean;
  /** Headers the answer carries besides its content type (`Retry-After` of a 429). */
  headers?: Record<string, string>;
}

function messageOf(response: unknown, fallback: string): string {
  if (typeof response === 'string') return response;
  if (response && typeof response === 'object' && 'message' in response) {
    const { message } = response as { message: unknown };
    if (Array.isArray(message)) return message.map(String).join('; ');
    if (typeof message === 'string') return message;
  }
  return fallback;
}

export const DATABASE_UNAVAILABLE_MESSAGE = 'Service temporarily unavailable, please try again';

// The driver's errors for a database it cannot reach (server selection, network, pool cleared).
const UNAVAILABLE_ERRORS = new Set([
  'MongoServerSelectionError',
  'MongoNetworkError',
  'MongoNetworkTimeoutError',
  'MongoPoolClearedError',
  'MongoNotConnectedError',
]);

function isDatabaseUnavailable(error: unknown): boolean {
  if (error instanceof mongoose.Error.MongooseServerSelectionError) return true;
  const name = (error as { name?: unknown } | null)?.name;
  return typeof name === 'string' && UNAVAILABLE_ERRORS.has(name);
}

/**
 * Turns anything thrown while serving a request into the one error shape and a fitting status.
 * Fastify's own client errors (malformed JSON, body too large) arrive here already turned into
 * HttpExceptions by NestJS's router, with Fastify's readable message.
 */
export function mapError(error: unknown): MappedError {
  if (error instanceof HttpException) {
    const status = error.getStatus();
    return {
      status,
      body: { message: messageOf(error.getResponse(), error.message) },
      unexpected: status >= 500,
      ...(error instanceof TooManyRequestsException
        ? { headers: { 'retry-after': String(error.retryAfterSeconds) } }
        : {}),
    };
  }
  if (error instanceof mongoose.Error.CastError) {
    return { status: 400, body: { message: `Invalid ${error.path}` }, unexpected: false };
  }
  if (error instanceof mongoose.Error.ValidationError) {
    const messages = Object.values(error.errors).map((e) => e.message);
    return { status: 400, body: { message: messages.join('; ') }, unexpected: false };
  }
  if (isDuplicateKey(error)) {
    return { status: 409, body: { message: 'Already exists' }, unexpected: false };
  }
  if (isDatabaseUnavailable(error)) {
    // Worth a log, but the caller learns it is passing and may retry, not that we failed.
    return {
      status: HttpStatus.SERVICE_UNAVAILABLE,
      body: { message: DATABASE_UNAVAILABLE_MESSAGE },
      unexpected: true,
    };
  }
  return {
    status: HttpStatus.INTERNAL_SERVER_ERROR,
    body: { message: 'Internal server error' },
    unexpected: true,
  };
}
