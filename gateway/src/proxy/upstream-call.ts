import { performance } from 'node:perf_hooks';
import type { Logger } from 'pino';
import type { Dispatcher } from 'undici';
import type { UpstreamAddress } from '../config/gateway-env';
import type { GatewayRoute } from '../config/gateway-config';
import { REQUEST_SIZE_LIMIT_MESSAGE } from '../plugins/request-size-limiting.plugin';
import { escapePath } from '../routing/path-normalizer';
import type { RouteMatch } from '../routing/route-matcher';
import { upstreamUri } from '../routing/upstream-uri';
import type { RequestTracer } from '../telemetry/request-tracer';
import { BodyLimitStream } from './body-limit.stream';
import { applyForwardedHeaders } from './forwarded-headers';
import { isUpstreamTimeout, upstreamFailure } from './kong-messages';
import type { ProxyRequest } from './proxy-request';
import { formatAddress, type UpstreamPools } from './upstream-pools';

const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);
// What a connection the service closed under us looks like (undici's "other side closed", or the OS's).
const CONNECTION_LOST = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE']);

/** What the call to a service needs besides the request. */
export interface UpstreamContext {
  readonly pools: UpstreamPools;
  readonly logger: Logger;
  /** Service host → address to connect to instead (GATEWAY_UPSTREAMS). */
  readonly upstreams: ReadonlyMap<string, UpstreamAddress>;
  readonly tracer?: RequestTracer;
}

/**
 * Rewrites the request for the service (forwarded headers, Host, the upstream path) and sends it:
 * Kong's proxying of a request that passed the access phase.
 */
export function proxyToService(
  request: ProxyRequest,
  match: RouteMatch<GatewayRoute>,
  path: string,
  context: UpstreamContext,
): void {
  const { req } = request;
  const { route } = match;
  const { service } = route;
  const target = request.target!;
  const address = context.upstreams.get(service.host) ?? { host: service.host, port: service.port };
  request.upstream = `${service.name} ${formatAddress(address)}`;
  // Judged before the headers are rewritten for the service (Transfer-Encoding is dropped there).
  const streamed = request.hasStreamedBody;
  let body: NodeJS.ReadableStream | null = streamed || (request.declaredLength ?? 0) > 0 ? req : null;
  request.clientWantsClose = /(^|,)\s*close\s*(,|$)/i.test(req.headers.connection ?? '');

  applyForwardedHeaders(req.headers, {
    clientIp: request.clientIp,
    serverPort: req.socket.localPort ?? 0,
    rawPath: target.path,
    strippedPrefix: route.stripPath ? match.matchedPath : null,
  });
  if (request.span) context.tracer?.inject(request.span, req.headers);
  // The gateway already answered `100 Continue` itself; a streamed body is re-framed for this hop.
  delete req.headers.expect;
  delete req.headers['transfer-encoding'];
  if (!route.preserveHost)
    req.headers.host = service.port === 80 ? service.host : `${service.host}:${service.port}`;

  const upstreamPath = escapePath(
    upstreamUri({
      servicePath: service.path,
      stripPath: route.stripPath,
      matchedPath: match.matchedPath,
      requestPath: path,
    }),
  );
  req.url = target.query === null ? upstreamPath : `${upstreamPath}?${target.query}`;

  const sizeLimit = request.plugins.requestSizeLimiting;
  if (sizeLimit && streamed) {
    const limited = new BodyLimitStream(sizeLimit.allowedBytes, () => rejectStreamedBody(request, limited));
    body = limited;
    req.pipe(limited);
  }
  new UpstreamCall(request, address, body, context).send();
}

/** A streamed body grew past the size limit: the call to the service is cut and the client gets 413. */
function rejectStreamedBody(request: ProxyRequest, body: BodyLimitStream): void {
  request.bodyRejected = true;
  request.req.unpipe(body);
  request.upstreamCall?.abort(new Error('request body refused'));
  if (request.res.headersSent) {
    request.res.destroy();
    return;
  }
  request.answer(413, REQUEST_SIZE_LIMIT_MESSAGE, {}, true);
}

/** The request to the service: dispatched on a kept-alive pool, its answer relayed chunk by chunk. */
class UpstreamCall {
  private attempts = 0;

  constructor(
    private readonly request: ProxyRequest,
    private readonly address: UpstreamAddress,
    private readonly body: NodeJS.ReadableStream | null,
    private readonly context: UpstreamContext,
  ) {}

  send(): void {
    const { request } = this;
    const { req, res } = request;
    this.attempts += 1;
    request.upstreamSentAt = performance.now();
    const { service } = request.route!;
    const handler: Dispatcher.DispatchHandler = {
      onRequestStart: (controller) => {
        request.upstreamCall = controller;
        if (request.bodyRejected) controller.abort(new Error('request body refused'));
      },
      onResponseStart: (_controller, status, headers) => {
        request.upstreamMs = performance.now() - (request.upstreamSentAt ?? request.startedAt);
        request.relayHead(status, headers);
      },
      onResponseData: (controller, chunk: Buffer) => {
        // Backpressure: a slow client pauses the read from the service instead of filling memory.
        if (!res.write(chunk)) {
          controller.pause();
          res.once('drain', () => controller.resume());
        }
      },
      onResponseEnd: () => res.end(),
      onResponseError: (_controller, error) => this.onError(error as NodeJS.ErrnoException),
    };
    try {
      this.context.pools.get(this.address, service.connectTimeoutMs).dispatch(
        {
          path: req.url ?? '/',
          method: request.method as Dispatcher.HttpMethod,
          headers: req.headers as Record<string, string | string[]>,
          body: this.body as Dispatcher.DispatchOptions['body'],
          // Kong's read_timeout: the longest wait for the answer to start, and between two reads of it.
          headersTimeout: service.readTimeoutMs,
          bodyTimeout: service.readTimeoutMs,
        },
        handler,
      );
    } catch (error) {
      this.onError(error as NodeJS.ErrnoException);
    }
  }

  private onError(error: NodeJS.ErrnoException): void {
    const { request } = this;
    const { res } = request;
    request.upstreamCall = undefined;
    if (request.answered || res.destroyed) return;
    if (res.headersSent) {
      // The answer is already under way; all that is left is to cut it so the client notices.
      res.destroy();
      return;
    }
    // A kept-alive connection the service closed at the same moment we reused it: one retry is
    // safe when there is no body to resend and the method is idempotent.
    const connectionLost = CONNECTION_LOST.has(error.code ?? '');
    if (connectionLost && this.attempts === 1 && IDEMPOTENT.has(request.method) && this.body === null) {
      this.send();
      return;
    }
    const failure = upstreamFailure(error);
    this.context.logger.warn(
      {
        correlationId: request.correlationId,
        upstream: request.upstream,
        code: error.code,
        err: error.message,
        timeout: isUpstreamTimeout(error),
        ...request.traceFields,
      },
      'upstream request failed',
    );
    request.answer(failure.status, failure.message);
  }
}
