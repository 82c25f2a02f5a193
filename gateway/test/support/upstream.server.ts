import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** What an echo upstream saw of one request. */
export interface UpstreamEcho {
  upstream: string;
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  bodyBytes: number;
  socketId: number;
}

/** A tiny real HTTP server on a free port, standing in for a service. */
export interface TestUpstream {
  readonly name: string;
  readonly port: number;
  readonly address: string;
  /** Requests seen so far. */
  readonly seen: UpstreamEcho[];
  close(): Promise<void>;
}

type Handler = (req: IncomingMessage, res: ServerResponse, echo: () => UpstreamEcho) => void;

/** Starts an upstream that answers every request with a JSON echo (or with `handler`). */
export async function startUpstream(name: string, handler?: Handler): Promise<TestUpstream> {
  const seen: UpstreamEcho[] = [];
  const sockets = new Map<Socket, number>();
  let nextSocketId = 0;
  const server = createServer((req, res) => {
    let bodyBytes = 0;
    const echo = (): UpstreamEcho => ({
      upstream: name,
      method: req.method ?? '',
      url: req.url ?? '',
      headers: req.headers,
      bodyBytes,
      socketId: sockets.get(req.socket) ?? -1,
    });
    if (handler) {
      handler(req, res, echo);
      return;
    }
    req.on('data', (chunk: Buffer) => {
      bodyBytes += chunk.length;
    });
    req.on('end', () => {
      const body = echo();
      seen.push(body);
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(body));
    });
  });
  server.on('connection', (socket) => sockets.set(socket, nextSocketId++));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    name,
    port,
    address: `127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A port that nothing listens on (bound, read, released). */
export async function unusedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A service nothing listens on: its kong.yml entry (service and route `down`, path /down) and where its host points. */
export interface DownService {
  /** The entry to place in a kong.yml's `services:` list. */
  yaml: string;
  /** For `startTestGatewayOver`'s `others`: the host `down` sent to an unused local port. */
  hosts: Record<string, string>;
}

/** A `down` service on a port that was free a moment ago, so a request to it is refused. */
export async function downService(): Promise<DownService> {
  const port = await unusedPort();
  const yaml = `  - name: down
    url: http://down:${port}
    routes:
      - name: down
        paths: [/down]
        strip_path: false
`;
  return { yaml, hosts: { down: `127.0.0.1:${port}` } };
}
