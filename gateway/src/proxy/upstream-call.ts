import { performance } from 'node:perf_hooks';
import type { Logger } from 'pino';
import type { Dispatcher } from 'undici';
import type { GatewayRoute } from '../config/gateway-config';
import { REQUEST_SIZE_LIMIT_MESSAGE } from '../plugins/request-size-limiting.plugin';
import { escapePath } from '../routing/path-normalizer';
import type { RouteMatch } from '../routing/route-matcher';
import { upstreamUri } from '../routing/upstream-uri';
import type { RequestTracer } from '../telemetry/request-tracer';
import { BodyLimitStream } from './body-limit.stream';
import { applyForwardedHeaders } from './forwarded-headers';
import type { Balancer, Peer } from './balancer/balancer';
import type { Balancers } from './balancer/balancers';
import { isNameResolutionFailure, isUpstreamTimeout, KONG_MESSAGES, upstreamFailure } from './kong-messages';
import type { ProxyRequest } from './proxy-request';
import { formatAddress, type UpstreamPools } from './upstream-pools';

// nginx's non-idempotent methods: never sent twice (proxy_next_upstream without non_idempotent).
const NON_IDEMPOTENT = new Set(['POST', 'PATCH', 'LOCK']);

/** What the call to a service needs besides the request. */
export interface UpstreamContext {
  readonly pools: UpstreamPools;
  readonly logger: Logger;
  readonly balancers: Balancers;
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
  new UpstreamCall(request, context.balancers.forService(service), body, context).send();
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

/**
 * The request to the service, tried on the balancer's next peer and retried as Kong does: after a failed
 * connection or a timeout, up to the service's `retries` more times, never once a non-idempotent
 * request (POST, PATCH) has been sent. Each failure feeds the passive health checks; the answer's
 * status (or the gateway's 502/504 after the last try) does too, as Kong's log phase reports it.
 */
class UpstreamCall {
  private peer?: Peer;
  /** The request reached the service's connection (undici started writing it). */
  private sent = false;

  constructor(
    private readonly request: ProxyRequest,
    private readonly balancer: Balancer,
    private readonly body: NodeJS.ReadableStream | null,
    private readonly context: UpstreamContext,
  ) {}

  send(): void {
    const { request, balancer } = this;
    const { req, res } = request;
    const { service, preserveHost } = request.route!;
    const peer = balancer.pick();
    if (!peer) {
      // The first pick happens in Kong's access phase, with its own message; a retry's is nginx's 503.
      request.answer(503, request.tries === 0 ? KONG_MESSAGES.noPeer : KONG_MESSAGES.upstreamUnavailable);
      return;
    }
    request.tries += 1;
    this.peer = peer;
    this.sent = false;
    request.upstream = `${service.name} ${formatAddress(peer.address)}`;
    if (!preserveHost) req.headers.host = peer.hostHeader;
    request.upstreamSentAt = performance.now();
    const handler: Dispatcher.DispatchHandler = {
      onRequestStart: (controller) => {
        this.sent = true;
        request.upstreamCall = controller;
        if (request.bodyRejected) controller.abort(new Error('request body refused'));
      },
      onResponseStart: (_controller, status, headers) => {
        request.upstreamMs = performance.now() - (request.upstreamSentAt ?? request.startedAt);
        balancer.reportStatus(peer, status);
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
      this.context.pools.get(peer.address, service.connectTimeoutMs).dispatch(
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

  /**
   * nginx's proxy_next_upstream (error, timeout) with Kong's tries: a request that was not sent can
   * always go to the next peer; one that was, only when its method is idempotent and it has no body
   * (the gateway streams bodies instead of buffering them, so a body cannot be sent twice).
   */
  private mayRetry(): boolean {
    const { request } = this;
    if (request.tries > request.route!.service.retries || request.bodyRejected) return false;
    return !this.sent || (!NON_IDEMPOTENT.has(request.method) && this.body === null);
  }

  private onError(error: NodeJS.ErrnoException): void {
    const { request, balancer } = this;
    const { res } = request;
    const peer = this.peer!;
    request.upstreamCall = undefined;
    if (request.answered || res.destroyed) return;
    if (res.headersSent) {
      // The answer is already under way; all that is left is to cut it so the client notices.
      res.destroy();
      return;
    }
    const timeout = isUpstreamTimeout(error);
    // An answer that does not parse is not an error of the connection (nginx's invalid_header, not retried).
    const unparsable = error.name === 'HTTPParserError' || (error.code?.startsWith('HPE_') ?? false);
    if (!isNameResolutionFailure(error) && !unparsable && this.mayRetry()) {
      if (timeout) balancer.reportTimeout(peer);
      else balancer.reportTcpFailure(peer);
      this.send();
      return;
    }
    const failure = upstreamFailure(error);
    if (!isNameResolutionFailure(error)) {
      if (timeout) balancer.reportTimeout(peer);
      else balancer.reportStatus(peer, failure.status);
    }
    this.context.logger.warn(
      {
        correlationId: request.correlationId,
        upstream: request.upstream,
        tries: request.tries,
        code: error.code,
        err: error.message,
        timeout,
        ...request.traceFields,
      },
      'upstream request failed',
    );
    request.answer(failure.status, failure.message);
  }
}
