import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { Logger } from 'pino';
import type { GatewayRoute } from '../config/gateway-config';
import { REQUEST_SIZE_LIMIT_MESSAGE } from '../plugins/request-size-limiting.plugin';
import { normalizePath } from '../routing/path-normalizer';
import type { RouteMatcher } from '../routing/route-matcher';
import type { GatewayMetrics } from '../telemetry/gateway-metrics';
import type { RequestTracer } from '../telemetry/request-tracer';
import { KONG_MESSAGES } from './kong-messages';
import type { PluginSet } from './plugin-resolver';
import { ProxyRequest } from './proxy-request';
import { proxyToService, type UpstreamContext } from './upstream-call';
import type { UpstreamPools } from './upstream-pools';
import type { Balancers } from './balancer/balancers';

/** Everything the handler needs to route a request, built once at start-up. */
export interface RoutingPlan {
  readonly matcher: RouteMatcher<GatewayRoute>;
  readonly plugins: PluginSet;
  /** The balancer of each service: its upstream's targets and their health. */
  readonly balancers: Balancers;
  /** The `opentelemetry` plugin's work, when kong.yml declares it. */
  readonly tracer?: RequestTracer;
  /** The `prometheus` plugin's metrics, when kong.yml declares it. */
  readonly metrics?: GatewayMetrics;
}

/**
 * Runs Kong's phases for each request: the route, the access phase's plugins in priority order, the
 * call to the service (upstream-call.ts; header_filter runs on the answer there), then the log phase.
 */
export class RequestHandler {
  private readonly upstream: UpstreamContext;

  constructor(
    private readonly plan: RoutingPlan,
    pools: UpstreamPools,
    private readonly logger: Logger,
  ) {
    this.upstream = { pools, logger, balancers: plan.balancers, tracer: plan.tracer };
  }

  /** Handles one request; `expectsContinue` is set for `Expect: 100-continue` requests. */
  handle(req: IncomingMessage, res: ServerResponse, expectsContinue = false): void {
    const request = new ProxyRequest(req, res, this.plan.plugins.global);
    const { method, target } = request;
    request.span = this.plan.tracer?.start(req.headers, () => ({
      'http.request.method': method,
      'url.path': target?.path ?? '',
      'url.scheme': 'http',
      'server.address': req.headers.host ?? '',
      'client.address': request.clientIp,
      'network.protocol.version': req.httpVersion,
    }));
    res.once('close', () => {
      // A client that hangs up mid-answer: the service's answer is no longer wanted.
      if (!res.writableFinished) request.upstreamCall?.abort(new Error('client closed the connection'));
      this.log(request);
    });

    const path = target ? normalizePath(target.path) : null;
    const match = path === null ? undefined : this.plan.matcher.match(method, path);
    if (match) {
      request.route = match.route;
      request.plugins = this.plan.plugins.forRoute(match.route);
    }
    if (!this.access(request, expectsContinue) || !match || path === null) return;
    if (expectsContinue) res.writeContinue();
    proxyToService(request, match, path, this.upstream);
  }

  /**
   * Kong's access phase: plugins in priority order (correlation-id, cors, request-size-limiting,
   * rate-limiting). Returns false when the gateway answered the request itself.
   */
  private access(request: ProxyRequest, expectsContinue: boolean): boolean {
    const { req, method } = request;
    const { correlationId, cors, requestSizeLimiting, rateLimiting } = request.plugins;
    if (correlationId) request.correlationId = correlationId.access(req.headers);

    if (!request.route) {
      request.answer(404, KONG_MESSAGES.noRoute);
      return false;
    }

    if (cors?.isPreflight(method, req.headers)) {
      request.preflight = true;
      if (!cors.preflightContinue) {
        request.answer(200, null, cors.preflightHeaders(req.headers));
        return false;
      }
    }

    if (requestSizeLimiting) {
      const length = request.declaredLength;
      if (length !== undefined && requestSizeLimiting.exceeds(length)) {
        // A client waiting for 100 Continue may still send its body after a while (curl does).
        request.answer(expectsContinue ? 417 : 413, REQUEST_SIZE_LIMIT_MESSAGE, {}, true);
        return false;
      }
    }

    if (rateLimiting) {
      const decision = rateLimiting.take(request.clientIp);
      if (!rateLimiting.hideClientHeaders) request.rateLimitHeaders = decision.headers;
      if (!decision.allowed) {
        request.answer(rateLimiting.errorCode, rateLimiting.errorMessage, {
          'retry-after': String(decision.reset),
        });
        return false;
      }
    }
    return true;
  }

  /** Kong's log phase: the access line, the end of the request span, the route's metrics. */
  private log(request: ProxyRequest): void {
    const { req, res, route } = request;
    // 499 is nginx's (and so Kong's) code for a client that went away before the answer was complete.
    const status = res.writableFinished ? res.statusCode : 499;
    const durationMs = performance.now() - request.startedAt;
    if (request.span) {
      this.plan.tracer?.end(request.span, {
        status,
        service: route?.service.name,
        route: route?.name,
        routePath: route ? (route.paths?.[0] ?? '') : undefined,
        correlationId: request.correlationId,
      });
    }
    if (route && this.plan.metrics) {
      this.plan.metrics.record({
        service: route.service.name,
        route: route.name,
        status,
        source: request.upstreamMs !== undefined && !request.answered ? 'service' : 'kong',
        requestMs: durationMs,
        upstreamMs: request.upstreamMs,
        ingressBytes: requestSize(req, request.logPath, request.declaredLength ?? 0),
        egressBytes: Math.max(0, request.socket.bytesWritten - request.bytesWrittenBefore),
      });
    }
    this.logger.info(
      {
        correlationId: request.correlationId ?? null,
        method: request.method,
        path: request.logPath,
        status,
        route: route?.name ?? null,
        upstream: request.upstream ?? null,
        tries: request.tries,
        durationMs: Math.round(durationMs * 10) / 10,
        clientIp: request.clientIp,
        ...request.traceFields,
      },
      'request',
    );
  }
}

/** Kong's `request.size` (nginx's request_length): request line, headers and the declared body. */
function requestSize(req: IncomingMessage, path: string, bodyLength: number): number {
  // "GET /path HTTP/1.1\r\n" and the blank line after the headers; the query string is not kept, so it is not counted.
  let size = req.method!.length + path.length + 13 + 2;
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) size += raw[i]!.length + raw[i + 1]!.length + 4;
  return size + bodyLength;
}
