import { type ArgumentsHost, Catch, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { mapError } from './error-response.mapper';

/** Answers every HTTP failure as `{ message }`; only unexpected ones are logged with their stack. */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  constructor(private readonly logger: Logger) {}

  catch(error: unknown, host: ArgumentsHost): void {
    if (host.getType() !== 'http') throw error;
    const http = host.switchToHttp();
    const reply = http.getResponse<FastifyReply>();
    const request = http.getRequest<FastifyRequest>();
    const mapped = mapError(error);
    if (mapped.unexpected) {
      this.logger.error({ err: error, correlationId: request.id, url: request.url }, 'request failed');
    }
    void reply
      .status(mapped.status)
      .header('content-type', 'application/json; charset=utf-8')
      .send(mapped.body);
  }
}
