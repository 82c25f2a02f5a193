import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { Span } from '@opentelemetry/api';
import type { Logger } from 'pino';
import type { Dispatcher } from 'undici';
import type { UpstreamAddress } from '../config/gateway-env';
import type { GatewayRoute } from '../config/gateway-config';
import type { ActivePlugins, PluginSet } from '../plugins/plugin-resolver';
import { REQUEST_SIZE_LIMIT_MESSAGE } from '../plugins/request-size-limiting.plugin';
import { type ResponseHeaders, setHeader } from '../plugins/response-headers';
import { escapePath, normalizePath, splitRequestTarget } from '../routing/path-normalizer';
import type { RouteMatch, RouteMatcher } from '../routing/route-matcher';
import { upstreamUri } from '../routing/upstream-uri';
import type { GatewayMetrics } from '../telemetry/gateway-metrics';
import type { RequestTracer } from '../telemetry/request-tracer';
import { BodyLimitStream } from './body-limit.stream';
import { applyForwardedHeaders, clientAddress } from './forwarded-headers';
import { KONG_MESSAGES, isUpstreamTimeout, upstreamFailure } from './kong-messages';
import { LINGERING_CLOSE, drainRequest } from './lingering-drain';
import { formatAddress, type UpstreamPools } from './upstream-pools';

/** Everything the handler needs to route a request, built once at start-up. */
export interface RoutingPlan {
  readonly matcher: RouteMatcher<GatewayRoute>;
  readonly plugins: PluginSet;
  /** Service host → address to connect to instead (GATEWAY_UPSTREAMS). */
  readonly upstreams: ReadonlyMap<string, UpstreamAddress>;
  /** The `opentelemetry` plugin's work, when kong.yml declares it. */
  readonly tracer?: RequestTracer;
  /** The `prometheus` plugin's metrics, when kong.yml declares it. */
  readonly metrics?: GatewayMetrics;
}

interface RequestContext {
  readonly startedAt: number;
  readonly method: string;
  readonly logPath: string;
  readonly clientIp: string;
  /** The gateway's span of this request (a bare id in the propagated context when nothing is exported). */
  readonly span?: Span;
  /** The client's connection (req.socket is gone once it closes) and its bytesWritten when the request came. */
  readonly socket: Socket;
  readonly bytesWrittenBefore: number;
  plugins: ActivePlugins;
  correlationId?: string;
  route?: GatewayRoute;
  upstream?: string;
  rateLimitHeaders?: Readonly<Record<string, string>>;
  /** A preflight: the cors plugin's response decoration does not run (Kong's skip_response_headers). */
  preflight: boolean;
  /** The gateway has answered itself; later upstream errors are noise. */
  answered: boolean;
  bodyRejected: boolean;
  clientWantsClose: boolean;
  attempts: number;
  /** When the request went to the service, and how long the service took to start its answer. */
  upstreamSentAt?: number;
  upstreamMs?: number;
  /** The request to the service under way, to cut it when the client goes or the body is refused. */
  upstreamCall?: Dispatcher.DispatchController;
}

const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);
// What a connection the service closed under us looks like (undici's "other side closed", or the OS's).
const CONNECTION_LOST = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE']);
// Response headers that describe the service's connection, not the client's (RFC 9110 7.6.1).
const HOP_BY_HOP_RESPONSE = ['keep-alive', 'proxy-connection', 'transfer-encoding', 'trailer', 'upgrade'];

function declaredLength(req: IncomingMessage): number | undefined {
  const value = req.headers['content-length'];
  if (value === undefined) return undefined;
  const length = Number.parseInt(value, 10);
  return Number.isNaN(length) ? undefined : length;
}

function hasStreamedBody(req: IncomingMessage): boolean {
  return req.headers['content-length'] === undefined && req.headers['transfer-encoding'] !== undefined;
}

/** Runs Kong's request path for each request: route, plugins in priority order, then the proxy. */
export class RequestHandler {
  constructor(
    private readonly plan: RoutingPlan,
    private readonly pools: UpstreamPools,
    private readonly logger: Logger,
  ) {}

  /** Handles one request; `expectsContinue` is set for `Expect: 100-continue` requests. */
  handle(req: IncomingMessage, res: ServerResponse, expectsContinue = false): void {
    const method = (req.method ?? 'GET').toUpperCase();
    const target = splitRequestTarget(req.url ?? '/');
    const ctx: RequestContext = {
      startedAt: performance.now(),
      method,
      logPath: target?.path ?? req.url ?? '',
      clientIp: clientAddress(req.socket.remoteAddress),
      span: this.plan.tracer?.start(req.headers, () => ({
        'http.request.method': method,
        'url.path': target?.path ?? '',
        'url.scheme': 'http',
        'server.address': req.headers.host ?? '',
        'client.address': clientAddress(req.socket.remoteAddress),
        'network.protocol.version': req.httpVersion,
      })),
      socket: req.socket,
      bytesWrittenBefore: req.socket.bytesWritten,
      plugins: this.plan.plugins.global,
      preflight: false,
      answered: false,
      bodyRejected: false,
      clientWantsClose: false,
      attempts: 0,
    };
    res.once('close', () => {
      // A client that hangs up mid-answer: the service's answer is no longer wanted.
      if (!res.writableFinished) ctx.upstreamCall?.abort(new Error('client closed the connection'));
      this.logRequest(ctx, req, res);
    });

    const path = target ? normalizePath(target.path) : null;
    const match = path === null ? undefined : this.plan.matcher.match(method, path);
    if (match) {
      ctx.route = match.route;
      ctx.plugins = this.plan.plugins.forRoute(match.route);
    }
    // Plugins run in Kong's priority order: correlation-id, cors, request-size-limiting, rate-limiting.
    const { correlationId, cors, requestSizeLimiting, rateLimiting } = ctx.plugins;
    if (correlationId) ctx.correlationId = correlationId.access(req.headers);

    if (!match || !target || path === null) {
      this.answer(req, res, ctx, 404, KONG_MESSAGES.noRoute);
      return;
    }

    if (cors?.isPreflight(method, req.headers)) {
      ctx.preflight = true;
      if (!cors.preflightContinue) {
        this.answer(req, res, ctx, 200, null, cors.preflightHeaders(req.headers));
        return;
      }
    }

    if (requestSizeLimiting) {
      const length = declaredLength(req);
      if (length !== undefined && requestSizeLimiting.exceeds(length)) {
        // A client waiting for 100 Continue may still send its body after a while (curl does).
        const status = expectsContinue ? 417 : 413;
        this.answer(req, res, ctx, status, REQUEST_SIZE_LIMIT_MESSAGE, {}, true);
        return;
      }
    }

    if (rateLimiting) {
      const decision = rateLimiting.take(ctx.clientIp);
      if (!rateLimiting.hideClientHeaders) ctx.rateLimitHeaders = decision.headers;
      if (!decision.allowed) {
        this.answer(req, res, ctx, rateLimiting.errorCode, rateLimiting.errorMessage, {
          'retry-after': String(decision.reset),
        });
        return;
      }
    }

    if (expectsContinue) res.writeContinue();
    this.forward(req, res, ctx, match, path, target.path, target.query);
  }

  private forward(
    req: IncomingMessage,
    res: ServerResponse,
    ctx: RequestContext,
    match: RouteMatch<GatewayRoute>,
    path: string,
    rawPath: string,
    query: string | null,
  ): void {
    const { route } = match;
    const { service } = route;
    const address = this.plan.upstreams.get(service.host) ?? { host: service.host, port: service.port };
    ctx.upstream = `${service.name} ${formatAddress(address)}`;
    // Judged before the headers are rewritten for the service (Transfer-Encoding is dropped there).
    const streamed = hasStreamedBody(req);
    let body: NodeJS.ReadableStream | null = streamed || (declaredLength(req) ?? 0) > 0 ? req : null;
    ctx.clientWantsClose = /(^|,)\s*close\s*(,|$)/i.test(req.headers.connection ?? '');

    applyForwardedHeaders(req.headers, {
      clientIp: ctx.clientIp,
      serverPort: req.socket.localPort ?? 0,
      rawPath,
      strippedPrefix: route.stripPath ? match.matchedPath : null,
    });
    if (ctx.span) this.plan.tracer?.inject(ctx.span, req.headers);
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
    req.url = query === null ? upstreamPath : `${upstreamPath}?${query}`;

    const sizeLimit = ctx.plugins.requestSizeLimiting;
    if (sizeLimit && streamed) {
      const limited = new BodyLimitStream(sizeLimit.allowedBytes, () =>
        this.rejectStreamedBody(req, res, ctx, limited),
      );
      body = limited;
      req.pipe(limited);
    }
    this.send(req, res, ctx, address, body);
  }

  private send(
    req: IncomingMessage,
    res: ServerResponse,
    ctx: RequestContext,
    address: UpstreamAddress,
    body: NodeJS.ReadableStream | null,
  ): void {
    ctx.attempts += 1;
    ctx.upstreamSentAt = performance.now();
    const { service } = ctx.route!;
    const handler: Dispatcher.DispatchHandler = {
      onRequestStart: (controller) => {
        ctx.upstreamCall = controller;
        if (ctx.bodyRejected) controller.abort(new Error('request body refused'));
      },
      onResponseStart: (_controller, status, headers) => {
        ctx.upstreamMs = performance.now() - (ctx.upstreamSentAt ?? ctx.startedAt);
        this.relayHead(req, res, ctx, status, headers);
      },
      onResponseData: (controller, chunk: Buffer) => {
        // Backpressure: a slow client pauses the read from the service instead of filling memory.
        if (!res.write(chunk)) {
          controller.pause();
          res.once('drain', () => controller.resume());
        }
      },
      onResponseEnd: () => res.end(),
      onResponseError: (_controller, error) =>
        this.onUpstreamError(error as NodeJS.ErrnoException, req, res, ctx, address, body),
    };
    try {
      this.pools.get(address, service.connectTimeoutMs).dispatch(
        {
          path: req.url ?? '/',
          method: ctx.method as Dispatcher.HttpMethod,
          headers: req.headers as Record<string, string | string[]>,
          body: body as Dispatcher.DispatchOptions['body'],
          // Kong's read_timeout: the longest wait for the answer to start, and between two reads of it.
          headersTimeout: service.readTimeoutMs,
          bodyTimeout: service.readTimeoutMs,
        },
        handler,
      );
    } catch (error) {
      this.onUpstreamError(error as NodeJS.ErrnoException, req, res, ctx, address, body);
    }
  }

  /** The service's status and headers, relayed with this hop's connection handling and the header filters. */
  private relayHead(
    req: IncomingMessage,
    res: ServerResponse,
    ctx: RequestContext,
    status: number,
    upstreamHeaders: IncomingHttpHeaders,
  ): void {
    if (ctx.answered || res.destroyed) return;
    const headers = upstreamHeaders as ResponseHeaders;
    const listed = typeof headers.connection === 'string' ? headers.connection.split(',') : [];
    for (const name of [...HOP_BY_HOP_RESPONSE, ...listed.map((token) => token.trim().toLowerCase())]) {
      if (name) delete headers[name];
    }
    headers.connection = ctx.clientWantsClose ? 'close' : 'keep-alive';
    this.applyHeaderFilters(req, ctx, headers);
    res.writeHead(status, headers as Record<string, string | string[] | number>);
  }

  private onUpstreamError(
    error: NodeJS.ErrnoException,
    req: IncomingMessage,
    res: ServerResponse,
    ctx: RequestContext,
    address: UpstreamAddress,
    body: NodeJS.ReadableStream | null,
  ): void {
    ctx.upstreamCall = undefined;
    if (ctx.answered || res.destroyed) return;
    if (res.headersSent) {
      // The answer is already under way; all that is left is to cut it so the client notices.
      res.destroy();
      return;
    }
    // A kept-alive connection the service closed at the same moment we reused it: one retry is
    // safe when there is no body to resend and the method is idempotent.
    const connectionLost = CONNECTION_LOST.has(error.code ?? '');
    if (connectionLost && ctx.attempts === 1 && IDEMPOTENT.has(ctx.method) && body === null) {
      this.send(req, res, ctx, address, body);
      return;
    }
    const failure = upstreamFailure(error);
    this.logger.warn(
      {
        correlationId: ctx.correlationId,
        upstream: ctx.upstream,
        code: error.code,
        err: error.message,
        timeout: isUpstreamTimeout(error),
        ...traceFields(ctx.span),
      },
      'upstream request failed',
    );
    this.answer(req, res, ctx, failure.status, failure.message);
  }

  private rejectStreamedBody(
    req: IncomingMessage,
    res: ServerResponse,
    ctx: RequestContext,
    body: BodyLimitStream,
  ): void {
    ctx.bodyRejected = true;
    req.unpipe(body);
    ctx.upstreamCall?.abort(new Error('request body refused'));
    if (res.headersSent) {
      res.destroy();
      return;
    }
    this.answer(req, res, ctx, 413, REQUEST_SIZE_LIMIT_MESSAGE, {}, true);
  }

  /**
   * Kong's header_filter phase, in plugin priority order: correlation id echo, CORS decoration, rate-limit
   * headers, then response-transformer (the security headers), which sees what the others set.
   */
  private applyHeaderFilters(req: IncomingMessage, ctx: RequestContext, headers: ResponseHeaders): void {
    const { correlationId, cors, responseTransformer } = ctx.plugins;
    if (correlationId && ctx.correlationId) correlationId.headerFilter(ctx.correlationId, headers);
    if (cors && !ctx.preflight) cors.headerFilter(req.headers, headers);
    if (ctx.rateLimitHeaders) {
      for (const [name, value] of Object.entries(ctx.rateLimitHeaders)) setHeader(headers, name, value);
    }
    responseTransformer?.headerFilter(headers);
  }

  /**
   * An answer produced by the gateway itself: JSON `{ message }` (or empty for a preflight). With
   * `bodyRefused`, the client may still be sending a body the gateway will not take: the answer is
   * written at once, and ended (closing the connection) only once that body has been read away.
   */
  private answer(
    req: IncomingMessage,
    res: ServerResponse,
    ctx: RequestContext,
    status: number,
    message: string | null,
    extraHeaders: ResponseHeaders = {},
    bodyRefused = false,
  ): void {
    ctx.answered = true;
    if (res.headersSent || res.destroyed) {
      res.destroy();
      return;
    }
    const body = message === null ? '' : JSON.stringify({ message });
    const headers: ResponseHeaders = { ...extraHeaders };
    if (message !== null) headers['content-type'] = 'application/json; charset=utf-8';
    headers['content-length'] = String(Buffer.byteLength(body));
    this.applyHeaderFilters(req, ctx, headers);
    if (bodyRefused) headers.connection = 'close';
    for (const [name, value] of Object.entries(headers)) {
      if (value !== undefined) res.setHeader(name, value);
    }
    res.writeHead(status);
    if (!bodyRefused) {
      res.end(body);
      return;
    }
    res.write(body);
    drainRequest(req, LINGERING_CLOSE, () => res.end());
  }

  /** Kong's log phase: the access line, the end of the request span, the route's metrics. */
  private logRequest(ctx: RequestContext, req: IncomingMessage, res: ServerResponse): void {
    // 499 is nginx's (and so Kong's) code for a client that went away before the answer was complete.
    const status = res.writableFinished ? res.statusCode : 499;
    const durationMs = performance.now() - ctx.startedAt;
    const { route } = ctx;
    if (ctx.span) {
      this.plan.tracer?.end(ctx.span, {
        status,
        service: route?.service.name,
        route: route?.name,
        routePath: route ? (route.paths?.[0] ?? '') : undefined,
        correlationId: ctx.correlationId,
      });
    }
    if (route && this.plan.metrics) {
      this.plan.metrics.record({
        service: route.service.name,
        route: route.name,
        status,
        source: ctx.upstreamMs !== undefined && !ctx.answered ? 'service' : 'kong',
        requestMs: durationMs,
        upstreamMs: ctx.upstreamMs,
        ingressBytes: requestSize(req, ctx.logPath),
        egressBytes: Math.max(0, ctx.socket.bytesWritten - ctx.bytesWrittenBefore),
      });
    }
    this.logger.info(
      {
        correlationId: ctx.correlationId ?? null,
        method: ctx.method,
        path: ctx.logPath,
        status,
        route: route?.name ?? null,
        upstream: ctx.upstream ?? null,
        durationMs: Math.round(durationMs * 10) / 10,
        clientIp: ctx.clientIp,
        ...traceFields(ctx.span),
      },
      'request',
    );
  }
}

/** `trace_id` and `span_id` of the gateway's span, for every log line about a request. */
function traceFields(span: Span | undefined): { trace_id?: string; span_id?: string } {
  if (!span) return {};
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}

/** Kong's `request.size` (nginx's request_length): request line, headers and the declared body. */
function requestSize(req: IncomingMessage, path: string): number {
  // "GET /path HTTP/1.1\r\n" and the blank line after the headers; the query string is not kept, so it is not counted.
  let size = req.method!.length + path.length + 13 + 2;
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) size += raw[i]!.length + raw[i + 1]!.length + 4;
  return size + (declaredLength(req) ?? 0);
}
