import { type Server, createServer } from 'node:http';
import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { metricsPortOf } from '../config/service-config';
import { SERVICE_CONTEXT, type ServiceContext } from '../service-context';
import { prometheusText } from './prometheus-text';
import { telemetryState } from './telemetry-state';

/**
 * The service's own listener for Prometheus: `GET /metrics` on METRICS_PORT (PORT + 6000 by
 * default), bound to the service's HOST. The gateway routes nothing here. Off when the SDK was not
 * started (`startTelemetry`), and when METRICS_PORT is 0. A port already taken is logged, not fatal:
 * metrics are not worth refusing traffic for.
 */
@Injectable()
export class MetricsListener implements OnApplicationBootstrap, OnApplicationShutdown {
  private server?: Server;

  constructor(@Inject(SERVICE_CONTEXT) private readonly context: ServiceContext) {}

  /** The port `/metrics` answers on, once listening. */
  get port(): number | undefined {
    const address = this.server?.address();
    return typeof address === 'object' && address ? address.port : undefined;
  }

  async onApplicationBootstrap(): Promise<void> {
    const exporter = telemetryState.prometheus;
    const port = metricsPortOf(this.context.config);
    if (!exporter || port === undefined) return;
    const server = createServer((request, response) => {
      if (request.method !== 'GET' || request.url?.split('?')[0] !== '/metrics') {
        response.writeHead(404, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ message: 'Not found: metrics are at GET /metrics' }));
        return;
      }
      exporter.collect().then(
        ({ resourceMetrics, errors }) => {
          if (errors.length > 0)
            this.context.logger.warn({ errors: errors.map(String) }, 'some metrics failed');
          response.writeHead(200, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8' });
          response.end(prometheusText(resourceMetrics));
        },
        (error: unknown) => {
          this.context.logger.error({ err: error }, 'metrics collection failed');
          response.writeHead(503, { 'content-type': 'application/json' });
          response.end(JSON.stringify({ message: 'Metrics are unavailable, please try again' }));
        },
      );
    });
    const { HOST: host } = this.context.config;
    const listening = await new Promise<boolean>((resolve) => {
      server.once('error', (error) => {
        this.context.logger.error({ err: error, port }, 'metrics listener could not start');
        resolve(false);
      });
      server.listen(port, host, () => resolve(true));
    });
    if (!listening) return;
    this.server = server;
    this.context.logger.info({ port, host }, 'metrics at /metrics');
  }

  async onApplicationShutdown(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
