import { HttpException, HttpStatus } from '@nestjs/common';

export const TOO_MANY_ATTEMPTS_MESSAGE = 'Too many attempts, please try again later';

/** 429 with the seconds until the window that refused the attempt ends (`Retry-After`). */
export class TooManyAttemptsException extends HttpException {
  constructor(readonly retryAfterSeconds: number) {
    super({ message: TOO_MANY_ATTEMPTS_MESSAGE }, HttpStatus.TOO_MANY_REQUESTS);
  }
}
