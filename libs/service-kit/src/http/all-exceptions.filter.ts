import { type ArgumentsHost, Catch, type ExceptionFilter } from '@nestjs/common';
import { RpcException } from '@nestjs/microservices';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { type Observable, throwError } from 'rxjs';
import { mapError } from './error-response.mapper';

/**
 * Answers every failure in the one error shape: `{ message }` with a fitting status over HTTP, and
 * `{ status, message }` to the caller of a NATS command. Only unexpected failures are logged with
 * their stack; neither answer ever carries one.
 */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  constructor(private readonly logger: Logger) {}

  catch(error: unknown, host: ArgumentsHost): void | Observable<never> {
    if (host.getType() === 'rpc') return this.catchRpc(error, host);
    const http = host.switchToHttp();
    const reply = http.getResponse<FastifyReply>();
    const request = http.getRequest<FastifyRequest>();
    const mapped = mapError(error);
    if (mapped.unexpected) {
      this.logger.error({ err: error, correlationId: request.id, url: request.url }, 'request failed');
    }
    void reply
      .status(mapped.status)
      .headers({ ...mapped.headers, 'content-type': 'application/json; charset=utf-8' })
      .send(mapped.body);
  }

  private catchRpc(error: unknown, host: ArgumentsHost): Observable<never> {
    if (error instanceof RpcException) return throwError(() => error.getError());
    const mapped = mapError(error);
    if (mapped.unexpected) {
      this.logger.error({ err: error, pattern: host.switchToRpc().getContext<unknown>() }, 'command failed');
    }
    return throwError(() => ({ status: mapped.status, message: mapped.body.message }));
  }
}
