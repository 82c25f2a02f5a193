import type { LoggerService } from '@nestjs/common';
import { isSpanContextValid, trace } from '@opentelemetry/api';
import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import pino, { type Logger, type LoggerOptions } from 'pino';

/** The ids of the active span, for a log line: `trace_id` and `span_id`, or nothing when no span is active. */
export function traceIds(): { trace_id?: string; span_id?: string } {
  const span = trace.getActiveSpan()?.spanContext();
  return span && isSpanContextValid(span) ? { trace_id: span.traceId, span_id: span.spanId } : {};
}

/**
 * Pino options shared by a service's own logs and Fastify's request logs: JSON, one line per event,
 * each carrying the active span's `trace_id` and `span_id` (see telemetry/start-telemetry.ts).
 */
export function loggerOptions(service: string, level: string): LoggerOptions {
  return {
    level,
    base: { service },
    mixin: traceIds,
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    redact: { paths: ['req.headers.authorization', 'req.headers.cookie'], censor: '[redacted]' },
  };
}

/**
 * Creates the service's root logger, writing synchronously to stdout: asynchronous writes, as the
 * gateway's, made no request faster and orders slower (docs/performance.md, Service logs).
 */
export function createLogger(service: string, level: string): Logger {
  return pino(loggerOptions(service, level));
}

/** Which requests a service writes an access line for (`ACCESS_LOG`, `SLOW_REQUEST_MS`). */
export interface AccessLogOptions {
  every: boolean;
  slowMs: number;
}

/**
 * A service's access lines. The gateway writes one line per request, with the correlation and trace ids
 * (gateway/src/proxy/request-handler.ts); a service adds one only for a request that failed (5xx, level
 * error), was refused (4xx) or took `slowMs` or longer (level warn), or for every request when `every` is
 * set. A line per request was a third of the products service's CPU on a cached read. Each line is
 * written when the answer is complete and carries the correlation id and the trace ids through the
 * request's child logger.
 */
export class AccessLogController extends LogController {
  constructor(private readonly options: AccessLogOptions) {
    super({ requestIdLogLabel: 'correlationId' });
  }

  override incomingRequest(): void {
    // The completed line says everything the incoming one did.
  }

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    const { statusCode } = reply;
    const responseTime = Math.round(reply.elapsedTime * 10) / 10;
    const slow = responseTime >= this.options.slowMs;
    const line = { method: request.method, url: request.url, statusCode, responseTime };
    if (error || statusCode >= 500) reply.log.error(error ? { ...line, err: error } : line, 'request failed');
    else if (statusCode >= 400) reply.log.info(line, 'request refused');
    else if (slow) reply.log.warn(line, 'request slow');
    else if (this.options.every) reply.log.info(line, 'request completed');
  }
}

/** Routes NestJS's own log calls into pino so every line is JSON. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, context?: string): void {
    this.logger.info({ context }, String(message));
  }
  error(message: unknown, trace?: string, context?: string): void {
    this.logger.error({ context, trace }, String(message));
  }
  warn(message: unknown, context?: string): void {
    this.logger.warn({ context }, String(message));
  }
  debug(message: unknown, context?: string): void {
    this.logger.debug({ context }, String(message));
  }
  verbose(message: unknown, context?: string): void {
    this.logger.trace({ context }, String(message));
  }
}
