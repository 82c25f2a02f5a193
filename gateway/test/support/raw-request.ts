import { type Agent, type IncomingHttpHeaders, type OutgoingHttpHeaders, request } from 'node:http';

/** A response read completely. */
export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  json<T = Record<string, unknown>>(): T;
}

export interface RawRequestOptions {
  method?: string;
  headers?: OutgoingHttpHeaders;
  /** Sent with Content-Length. */
  body?: Buffer | string;
  /** Sent chunked (no Content-Length), one write per chunk. */
  chunks?: readonly Buffer[];
  /** Client address to connect from (any 127.x.y.z works on Linux loopback). */
  localAddress?: string;
  agent?: Agent | false;
}

/**
 * Sends a request with the exact target given (no client-side URL normalisation, unlike fetch),
 * so tests can send `..`, `//` and percent-encoded paths.
 */
export function rawRequest(
  baseUrl: string,
  target: string,
  options: RawRequestOptions = {},
): Promise<RawResponse> {
  const base = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: base.hostname,
        port: base.port,
        method: options.method ?? 'GET',
        path: target,
        headers: options.headers,
        localAddress: options.localAddress,
        agent: options.agent ?? false,
      },
      (res) => {
        const parts: Buffer[] = [];
        res.on('data', (chunk: Buffer) => parts.push(chunk));
        res.on('end', () => {
          const body = Buffer.concat(parts).toString('utf8');
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body,
            json: <T>() => JSON.parse(body) as T,
          });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (options.chunks) {
      for (const chunk of options.chunks) req.write(chunk);
      req.end();
    } else {
      req.end(options.body);
    }
  });
}

/** POSTs a body of `bytes` zero bytes, with Content-Length. */
export function postBytes(baseUrl: string, target: string, bytes: number): Promise<RawResponse> {
  return rawRequest(baseUrl, target, { method: 'POST', body: Buffer.alloc(bytes) });
}

/** POSTs a chunked body (no Content-Length) of zero bytes, one chunk of each size in turn. */
export function postChunked(
  baseUrl: string,
  target: string,
  chunkSizes: readonly number[],
): Promise<RawResponse> {
  return rawRequest(baseUrl, target, {
    method: 'POST',
    chunks: chunkSizes.map((size) => Buffer.alloc(size)),
  });
}
