import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { Span } from '@opentelemetry/api';
import type { Dispatcher } from 'undici';
import type { GatewayRoute } from '../config/gateway-config';
import { type ResponseHeaders, setHeader } from '../plugins/response-headers';
import { splitRequestTarget } from '../routing/path-normalizer';
import type { ActivePlugins } from './plugin-resolver';
import { clientAddress } from './forwarded-headers';
import { LINGERING_CLOSE, drainRequest } from './lingering-drain';

// Response headers that describe the service's connection, not the client's (RFC 9110 7.6.1).
const HOP_BY_HOP_RESPONSE = ['keep-alive', 'proxy-connection', 'transfer-encoding', 'trailer', 'upgrade'];

/**
 * One request through the gateway: the client's request and response, and what the phases learn
 * about it on the way (route, plugins, the correlation id, the call to the service).
 */
export class ProxyRequest {
  readonly startedAt = performance.now();
  readonly method: string;
  /** The request target split into path and query, or null when it is not a valid origin-form target. */
  readonly target: { readonly path: string; readonly query: string | null } | null;
  readonly clientIp: string;
  /** The client's connection (req.socket is gone once it closes) and its bytesWritten when the request came. */
  readonly socket: Socket;
  readonly bytesWrittenBefore: number;
  /** The gateway's span of this request (a bare id in the propagated context when nothing is exported). */
  span?: Span;
  plugins: ActivePlugins;
  correlationId?: string;
  route?: GatewayRoute;
  /** `<service> <host:port>` of the last target tried, for the logs. */
  upstream?: string;
  /** How many targets the request was sent to (1 + retries; 0 when the gateway answered itself). */
  tries = 0;
  rateLimitHeaders?: Readonly<Record<string, string>>;
  /** A preflight: the cors plugin's response decoration does not run (Kong's skip_response_headers). */
  preflight = false;
  /** The gateway has answered itself; later upstream errors are noise. */
  answered = false;
  bodyRejected = false;
  clientWantsClose = false;
  /** When the request went to the service, and how long the service took to start its answer. */
  upstreamSentAt?: number;
  upstreamMs?: number;
  /** The request to the service under way, to cut it when the client goes or the body is refused. */
  upstreamCall?: Dispatcher.DispatchController;

  constructor(
    readonly req: IncomingMessage,
    readonly res: ServerResponse,
    globalPlugins: ActivePlugins,
  ) {
    this.method = (req.method ?? 'GET').toUpperCase();
    this.target = splitRequestTarget(req.url ?? '/');
    this.clientIp = clientAddress(req.socket.remoteAddress);
    this.socket = req.socket;
    this.bytesWrittenBefore = req.socket.bytesWritten;
    this.plugins = globalPlugins;
  }

  /** The path as the client sent it (no query), for logs and metrics. */
  get logPath(): string {
    return this.target?.path ?? this.req.url ?? '';
  }

  /** The request body's Content-Length, when it has a valid one. */
  get declaredLength(): number | undefined {
    const value = this.req.headers['content-length'];
    if (value === undefined) return undefined;
    const length = Number.parseInt(value, 10);
    return Number.isNaN(length) ? undefined : length;
  }

  /** A body without Content-Length (chunked): it can only be judged while it arrives. */
  get hasStreamedBody(): boolean {
    const { headers } = this.req;
    return headers['content-length'] === undefined && headers['transfer-encoding'] !== undefined;
  }

  /** `trace_id` and `span_id` of the gateway's span, for every log line about this request. */
  get traceFields(): { trace_id?: string; span_id?: string } {
    if (!this.span) return {};
    const { traceId, spanId } = this.span.spanContext();
    return { trace_id: traceId, span_id: spanId };
  }

  /**
   * Kong's header_filter phase, in plugin priority order: correlation id echo, CORS decoration, rate-limit
   * headers, then response-transformer (the security headers), which sees what the others set.
   */
  headerFilter(headers: ResponseHeaders): void {
    const { correlationId, cors, responseTransformer } = this.plugins;
    if (correlationId && this.correlationId) correlationId.headerFilter(this.correlationId, headers);
    if (cors && !this.preflight) cors.headerFilter(this.req.headers, headers);
    if (this.rateLimitHeaders) {
      for (const [name, value] of Object.entries(this.rateLimitHeaders)) setHeader(headers, name, value);
    }
    responseTransformer?.headerFilter(headers);
  }

  /** The service's status and headers, relayed with this hop's connection handling and the header filters. */
  relayHead(status: number, upstreamHeaders: IncomingHttpHeaders): void {
    const { res } = this;
    if (this.answered || res.destroyed) return;
    const headers = upstreamHeaders as ResponseHeaders;
    const listed = typeof headers.connection === 'string' ? headers.connection.split(',') : [];
    for (const name of [...HOP_BY_HOP_RESPONSE, ...listed.map((token) => token.trim().toLowerCase())]) {
      if (name) delete headers[name];
    }
    headers.connection = this.clientWantsClose ? 'close' : 'keep-alive';
    this.headerFilter(headers);
    res.writeHead(status, headers as Record<string, string | string[] | number>);
  }

  /**
   * An answer produced by the gateway itself: JSON `{ message }` (or empty for a preflight). With
   * `bodyRefused`, the client may still be sending a body the gateway will not take: the answer is
   * written at once, and ended (closing the connection) only once that body has been read away.
   */
  answer(
    status: number,
    message: string | null,
    extraHeaders: ResponseHeaders = {},
    bodyRefused = false,
  ): void {
    const { req, res } = this;
    this.answered = true;
    if (res.headersSent || res.destroyed) {
      res.destroy();
      return;
    }
    const body = message === null ? '' : JSON.stringify({ message });
    const headers: ResponseHeaders = { ...extraHeaders };
    if (message !== null) headers['content-type'] = 'application/json; charset=utf-8';
    headers['content-length'] = String(Buffer.byteLength(body));
    this.headerFilter(headers);
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
}
