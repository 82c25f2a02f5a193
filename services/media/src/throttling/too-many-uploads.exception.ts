import { HttpException, HttpStatus } from '@nestjs/common';
import { MEDIA_MESSAGES } from '@shop/contracts';

/** 429 with the seconds until the window that refused the upload ends (`Retry-After`). */
export class TooManyUploadsException extends HttpException {
  constructor(readonly retryAfterSeconds: number) {
    super({ message: MEDIA_MESSAGES.tooManyUploads }, HttpStatus.TOO_MANY_REQUESTS);
  }
}
