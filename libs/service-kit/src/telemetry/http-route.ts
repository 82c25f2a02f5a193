import { context } from '@opentelemetry/api';
import { RPCType, getRPCMetadata } from '@opentelemetry/core';
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';

/**
 * A Fastify `onRequest` hook that tells the http instrumentation the request's route
 * (`/api/orders/:id`, not the URL), for the `http_route` label of its duration histogram and the
 * name of its server span. `@fastify/otel` does the same, but only runs while spans are recorded.
 */
export function recordRoute(
  request: FastifyRequest,
  _reply: FastifyReply,
  done: HookHandlerDoneFunction,
): void {
  const rpc = getRPCMetadata(context.active());
  const route = request.routeOptions.url;
  if (rpc?.type === RPCType.HTTP && route) rpc.route = route;
  done();
}
