import { type Agent, request, type IncomingMessage, type ServerResponse } from 'node:http';

/**
 * Sends a request on to `target` as it came and its answer back as it is: what a bench's static copy of a
 * page does for everything but the page itself (pictures, scripts, calls, to the gateway), so both sides
 * load the rest alike; and the whole of the plainest Node proxy the reads section measures.
 */
export function passOn(
  target: URL,
  incoming: IncomingMessage,
  outgoing: ServerResponse,
  agent?: Agent,
): void {
  const upstream = request(
    {
      host: target.hostname,
      port: target.port,
      path: incoming.url,
      method: incoming.method,
      headers: { ...incoming.headers, host: target.host },
      agent,
    },
    (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(outgoing);
    },
  );
  upstream.on('error', () => outgoing.destroy());
  incoming.pipe(upstream);
}
