import type { IncomingHttpHeaders } from 'node:http';

/** What the gateway knows about the client connection. */
export interface ClientConnection {
  /** The socket's peer address: the only client address the gateway trusts. */
  readonly clientIp: string;
  /** The port the gateway accepted the connection on. */
  readonly serverPort: number;
  /** The raw request path (no query), as Kong sends it in X-Forwarded-Path. */
  readonly rawPath: string;
  /** The route prefix removed by strip_path, if any. */
  readonly strippedPrefix: string | null;
}

// Hop-by-hop headers describe one connection and must not be forwarded (RFC 9110 7.6.1).
const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'upgrade'];

/** The address Node reports for IPv4 clients on a dual-stack socket is `::ffff:a.b.c.d`. */
export function clientAddress(remoteAddress: string | undefined): string {
  if (!remoteAddress) return 'unknown';
  return remoteAddress.startsWith('::ffff:') && remoteAddress.includes('.')
    ? remoteAddress.slice(7)
    : remoteAddress;
}

function hostWithoutPort(host: string): string {
  if (host.startsWith('[')) return host.slice(0, host.indexOf(']') + 1);
  const colon = host.indexOf(':');
  return (colon === -1 ? host : host.slice(0, colon)).toLowerCase();
}

/**
 * Rewrites request headers for the upstream the way Kong does when the client is not a trusted
 * proxy: X-Real-IP is the socket address (whatever the client sent), X-Forwarded-For gets the
 * socket address appended, and X-Forwarded-Proto/Host/Port/Path/Prefix describe this hop.
 */
export function applyForwardedHeaders(headers: IncomingHttpHeaders, connection: ClientConnection): void {
  const listed = typeof headers.connection === 'string' ? headers.connection.split(',') : [];
  for (const name of [...HOP_BY_HOP, ...listed.map((token) => token.trim().toLowerCase())]) {
    if (name && name !== 'transfer-encoding') delete headers[name];
  }

  const { clientIp } = connection;
  const previous = headers['x-forwarded-for'];
  headers['x-forwarded-for'] = previous ? `${previous}, ${clientIp}` : clientIp;
  headers['x-real-ip'] = clientIp;
  headers['x-forwarded-proto'] = 'http';
  headers['x-forwarded-host'] = headers.host ? hostWithoutPort(headers.host) : 'localhost';
  headers['x-forwarded-port'] = String(connection.serverPort);
  headers['x-forwarded-path'] = connection.rawPath;
  if (connection.strippedPrefix) headers['x-forwarded-prefix'] = connection.strippedPrefix;
  else delete headers['x-forwarded-prefix'];
}
