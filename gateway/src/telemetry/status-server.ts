import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { GatewayMetrics } from './gateway-metrics';

/** The gateway's status listener (Kong's `status_listen`): `GET /metrics` for Prometheus, nothing else. */
export interface StatusServer {
  readonly url: string;
  close(): Promise<void>;
}

function sendJson(res: ServerResponse, status: number, message: string): void {
  const body = JSON.stringify({ message });
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
  });
  res.end(body);
}

/**
 * Serves the metrics on a port of its own, never through the proxy port: the routes of kong.yml cannot
 * reach it, and in a cluster only the scraper is let in (NetworkPolicy).
 */
export async function startStatusServer(
  metrics: GatewayMetrics,
  port: number,
  host: string,
): Promise<StatusServer> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/metrics') {
      sendJson(res, 404, 'Not found');
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('allow', 'GET, HEAD');
      sendJson(res, 405, 'Method not allowed');
      return;
    }
    metrics.registry.metrics().then(
      (text) => {
        res.writeHead(200, {
          'content-type': metrics.registry.contentType,
          'content-length': Buffer.byteLength(text),
        });
        res.end(req.method === 'HEAD' ? undefined : text);
      },
      () => sendJson(res, 500, 'Metrics could not be collected'),
    );
  });
  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolveListen();
    });
  });
  const address = server.address() as AddressInfo;
  const urlHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${urlHost}:${address.port}`,
    close: () =>
      new Promise<void>((resolveClose) => {
        server.close(() => resolveClose());
        server.closeAllConnections();
      }),
  };
}
