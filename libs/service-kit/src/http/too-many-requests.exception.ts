import { HttpException, HttpStatus } from '@nestjs/common';

/**
 * 429 with the seconds until the caller may try again: the service's error filter answers it in the
 * one error shape with a `Retry-After` header.
 */
export class TooManyRequestsException extends HttpException {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super({ message }, HttpStatus.TOO_MANY_REQUESTS);
  }
}
