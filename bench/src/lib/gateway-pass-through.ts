import { request, type IncomingMessage, type ServerResponse } from 'node:http';

/**
 * Sends a request on to the gateway as it came and its answer back as it is: what a bench's static copy of
 * a page does for everything but the page itself (pictures, scripts, calls), so both sides load the rest alike.
 */
export function passToGateway(gateway: URL, incoming: IncomingMessage, outgoing: ServerResponse): void {
  const upstream = request(
    {
      host: gateway.hostname,
      port: gateway.port,
      path: incoming.url,
      method: incoming.method,
      headers: { ...incoming.headers, host: gateway.host },
    },
    (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(outgoing);
    },
  );
  upstream.on('error', () => outgoing.destroy());
  incoming.pipe(upstream);
}
