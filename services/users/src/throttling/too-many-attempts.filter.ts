import { type ArgumentsHost, Catch, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { TOO_MANY_ATTEMPTS_MESSAGE, TooManyAttemptsException } from './too-many-attempts.exception';

/** Answers a throttled attempt in the one error shape, adding `Retry-After`. */
@Catch(TooManyAttemptsException)
export class TooManyAttemptsFilter implements ExceptionFilter<TooManyAttemptsException> {
  catch(error: TooManyAttemptsException, host: ArgumentsHost): void {
    void host
      .switchToHttp()
      .getResponse<FastifyReply>()
      .status(error.getStatus())
      .header('retry-after', String(error.retryAfterSeconds))
      .header('content-type', 'application/json; charset=utf-8')
      .send({ message: TOO_MANY_ATTEMPTS_MESSAGE });
  }
}
