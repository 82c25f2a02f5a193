import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { resolve } from 'node:path';
import type { SpanExporter } from '@opentelemetry/sdk-trace';
import type { Logger } from 'pino';
import { GatewayEnvError } from '../config/gateway-env';
import type { GatewayRoute } from '../config/gateway-config';
import { loadKongConfig } from '../config/kong-config.loader';
import { createGatewayLogger, flushGatewayLog } from '../logging/gateway-logger';
import { PluginSet } from './plugin-resolver';
import { RouteMatcher } from '../routing/route-matcher';
import { GatewayMetrics } from '../telemetry/gateway-metrics';
import { RequestTracer } from '../telemetry/request-tracer';
import { type StatusServer, startStatusServer } from '../telemetry/status-server';
import { Balancers, resolveAddresses } from './balancer/balancers';
import { KONG_MESSAGES } from './kong-messages';
import { RequestHandler, type RoutingPlan } from './request-handler';
import { formatAddress, UpstreamPools } from './upstream-pools';

/** Options of {@link startGateway}. */
export interface StartGatewayOptions {
  /** The Kong declarative file to serve. */
  configPath: string;
  /** Port to listen on; 0 picks a free one. */
  port: number;
  /** Interface to listen on (default 0.0.0.0). */
  host?: string;
  /**
   * Where a target's (or a plain service's) host is, instead of its DNS name: `host:port`, or several for
   * replicas, each then a target of its own (local runs list every host; README "Local replicas").
   */
  upstreams?: Readonly<Record<string, string | readonly string[]>>;
  /** Multiplies every rate limit (load tests); logged as a warning when not 1. */
  rateLimitFactor?: number;
  /** Logger to use instead of the default JSON logger on stdout. */
  logger?: Logger;
  /**
   * Port of the status listener serving `GET /metrics` when kong.yml declares the prometheus plugin
   * (GATEWAY_STATUS_PORT); 0 picks a free one; undefined (the default here) or null: no listener.
   */
  statusPort?: number | null;
  /** The OTEL_* variables the tracer reads (default: process.env). */
  telemetryEnv?: NodeJS.ProcessEnv;
  /** Spans go to this exporter instead of the OTLP endpoint of the environment (tests). */
  spanExporter?: SpanExporter;
}

/** A running gateway. */
export interface RunningGateway {
  /** Base URL, e.g. `http://127.0.0.1:8000`. */
  url: string;
  port: number;
  /** Base URL of the status listener (`/metrics`), when there is one. */
  statusUrl?: string;
  /** Stops accepting requests, lets in-flight ones finish briefly, then closes everything. */
  close(): Promise<void>;
}

const CLOSE_GRACE_MS = 2_000;

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolveListen, reject) => {
    const onError = (error: Error): void => reject(error);
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolveListen();
    });
  });
}

function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const status =
    error.code === 'HPE_HEADER_OVERFLOW' ? '431 Request Header Fields Too Large' : '400 Bad Request';
  const body = JSON.stringify({
    message:
      error.code === 'HPE_HEADER_OVERFLOW' ? 'Request header or cookie too large' : KONG_MESSAGES.badRequest,
  });
  socket.end(
    `HTTP/1.1 ${status}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/**
 * Starts the local gateway: serves the routes and plugins of a Kong 3 declarative file.
 * Refuses to start (rejects) when the file uses anything the gateway does not implement.
 */
export async function startGateway(options: StartGatewayOptions): Promise<RunningGateway> {
  const logger = options.logger ?? createGatewayLogger();
  const host = options.host ?? '0.0.0.0';
  const rateLimitFactor = options.rateLimitFactor ?? 1;
  if (!Number.isFinite(rateLimitFactor) || rateLimitFactor <= 0) {
    throw new GatewayEnvError([`rateLimitFactor must be a positive number, got ${rateLimitFactor}`]);
  }
  if (!Number.isInteger(options.port) || options.port < 0 || options.port > 65_535) {
    throw new GatewayEnvError([`port must be 0-65535, got ${options.port}`]);
  }

  const configPath = resolve(options.configPath);
  const config = loadKongConfig(configPath);
  const addresses = resolveAddresses(options.upstreams ?? {}, config);
  const plugins = new PluginSet(config, rateLimitFactor);
  const { openTelemetry, prometheus } = plugins.global;
  const plan: RoutingPlan = {
    matcher: new RouteMatcher<GatewayRoute>(config.routes),
    plugins,
    balancers: new Balancers(config, addresses, logger),
    tracer: openTelemetry
      ? new RequestTracer({
          plugin: openTelemetry,
          env: options.telemetryEnv ?? process.env,
          spanExporter: options.spanExporter,
        })
      : undefined,
    metrics: prometheus ? new GatewayMetrics(prometheus) : undefined,
  };
  if (prometheus?.config.upstream_health_metrics)
    plan.metrics?.watchTargets(() => plan.balancers.targetHealth());
  if (rateLimitFactor !== 1) {
    logger.warn(
      { rateLimitFactor },
      `rate limits multiplied by ${rateLimitFactor} (GATEWAY_RATE_LIMIT_FACTOR); not the production limits`,
    );
  }

  const pools = new UpstreamPools();
  const handler = new RequestHandler(plan, pools, logger);

  const server = createServer((req, res) => handler.handle(req, res));
  server.on('checkContinue', (req, res) => handler.handle(req, res, true));
  server.on('clientError', answerClientError);

  await listen(server, options.port, host);
  let status: StatusServer | undefined;
  if (plan.metrics && options.statusPort !== undefined && options.statusPort !== null) {
    try {
      status = await startStatusServer(plan.metrics, options.statusPort, host);
    } catch (error) {
      server.close();
      throw error;
    }
  }
  const { port } = server.address() as AddressInfo;
  const urlHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  const url = `http://${urlHost}:${port}`;
  logger.info(
    {
      url,
      config: configPath,
      routes: config.routes.length,
      metrics: status ? `${status.url}/metrics` : null,
      traces: plan.tracer?.exportsTo ?? 'off',
      upstreams: Object.fromEntries(
        [...addresses].map(([name, list]) => [name, list.map((address) => formatAddress(address))]),
      ),
    },
    'gateway listening',
  );

  let closing: Promise<void> | undefined;
  return {
    url,
    port,
    statusUrl: status?.url,
    close() {
      closing ??= new Promise<void>((resolveClose) => {
        const force = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS);
        force.unref();
        plan.balancers.stop();
        server.close(() => {
          clearTimeout(force);
          void Promise.allSettled([pools.destroy(), status?.close(), plan.tracer?.shutdown()])
            // The last access lines, still gathered in memory (gateway-logger.ts).
            .then(() => flushGatewayLog(logger))
            .then(() => resolveClose());
        });
        server.closeIdleConnections();
      });
      return closing;
    },
  };
}
