import { randomUUID } from 'node:crypto';
import { constants as zlibConstants } from 'node:zlib';
import fastifyCompress from '@fastify/compress';
import type { DynamicModule, ValidationPipe } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { CustomStrategy } from '@nestjs/microservices';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { CORRELATION_ID_HEADER } from '@shop/contracts';
import { AllExceptionsFilter } from '../http/all-exceptions.filter';
import { RequestValidationPipe } from '../http/request-validation.pipe';
import { AccessLogController, PinoNestLogger } from '../logging/logger';
import { CommandVersionInterceptor } from '../nats/command-version.interceptor';
import { TracedServerNats } from '../nats/traced-nats.server';
import { addServerRequestTelemetry } from '../telemetry/server-requests';
import { writeAlone } from '../util/group-commit';
import { telemetryState } from '../telemetry/telemetry-state';
import type { ServiceContext } from '../service-context';

/**
 * Validation for every request body, query and param: unknown fields are dropped, types are enforced,
 * and a missing field is reported once.
 */
export function requestValidationPipe(): ValidationPipe {
  return new RequestValidationPipe({
    whitelist: true,
    transform: true,
    forbidUnknownValues: true,
    stopAtFirstError: false,
  });
}

/**
 * JSON answers above 1 KB leave compressed (docs/performance.md): the service compresses, so the
 * bytes are saved on every hop, the gateway passes them through untouched, and Kong needs no plugin.
 * Brotli at quality 4 and gzip at 6: on-the-fly compression must cost less than the bytes it saves.
 */
const responseCompression = {
  threshold: 1024,
  encodings: ['br', 'gzip'] as ('br' | 'gzip')[],
  brotliOptions: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 4 } },
  zlibOptions: { level: 6 },
};

/**
 * Creates and starts a service: NestJS on Fastify with JSON logs carrying the gateway's correlation
 * id, the one error shape, request validation, NATS request/reply handlers in a queue group named
 * after the service (with command schema versions checked, each handled in the caller's trace), and
 * graceful shutdown. Traces and metrics need `startTelemetry` first, in main.ts.
 */
export async function bootstrapService(
  context: ServiceContext,
  module: DynamicModule,
): Promise<NestFastifyApplication> {
  const { config, logger, name } = context;
  writeAlone(config.GROUP_COMMIT_OFF);
  const adapter = new FastifyAdapter({
    loggerInstance: logger,
    requestIdHeader: CORRELATION_ID_HEADER,
    genReqId: () => randomUUID(),
    logController: new AccessLogController({
      every: config.ACCESS_LOG === 'all',
      slowMs: config.SLOW_REQUEST_MS,
    }),
    bodyLimit: config.BODY_LIMIT_BYTES,
  });
  if (telemetryState.serverRequests)
    addServerRequestTelemetry(adapter.getInstance(), telemetryState.serverRequests);
  const app = await NestFactory.create<NestFastifyApplication>(module, adapter, {
    logger: new PinoNestLogger(logger),
  });
  await app.register(fastifyCompress, responseCompression);
  app.useGlobalFilters(new AllExceptionsFilter(logger));
  app.useGlobalPipes(requestValidationPipe());
  app.useGlobalInterceptors(new CommandVersionInterceptor());
  app.enableShutdownHooks();
  app.connectMicroservice<CustomStrategy>(
    {
      strategy: new TracedServerNats({
        servers: config.NATS_URL.split(','),
        queue: name,
        name: `${name}-rpc`,
        waitOnFirstConnect: true,
        maxReconnectAttempts: -1,
        reconnectTimeWait: 500,
      }),
    },
    { inheritAppConfig: true },
  );
  await app.startAllMicroservices();
  await app.listen(config.PORT, config.HOST);
  logger.info({ port: app.getHttpServer().address() }, `${name} service listening`);
  return app;
}
