import { type ArgumentsHost, Catch, type ExceptionFilter } from '@nestjs/common';
import { MEDIA_MESSAGES } from '@shop/contracts';
import type { FastifyReply } from 'fastify';
import { TooManyUploadsException } from './too-many-uploads.exception';

/** Answers a throttled upload in the one error shape, adding `Retry-After`. */
@Catch(TooManyUploadsException)
export class TooManyUploadsFilter implements ExceptionFilter<TooManyUploadsException> {
  catch(error: TooManyUploadsException, host: ArgumentsHost): void {
    void host
      .switchToHttp()
      .getResponse<FastifyReply>()
      .status(error.getStatus())
      .header('retry-after', String(error.retryAfterSeconds))
      .header('content-type', 'application/json; charset=utf-8')
      .send({ message: MEDIA_MESSAGES.tooManyUploads });
  }
}
