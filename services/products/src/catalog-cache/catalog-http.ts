import { Negotiator } from '@fastify/accept-negotiator';
import { TOTAL_COUNT_HEADER } from '@shop/contracts';
import type { FeatureFlags } from '@shop/service-kit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  COMPRESS_THRESHOLD_BYTES,
  type CachedAnswer,
  type CachedEncoding,
  type CatalogCache,
  encodedBody,
  makeAnswer,
} from './catalog-cache';

/**
 * Public catalogue reads may be kept by browsers and shared caches, but must be revalidated on every
 * use: a change is visible within a second (the event delay), which any max-age would break, and a
 * revalidation that matches costs a 304 without a body.
 */
export const CATALOG_CACHE_CONTROL = 'public, max-age=0, must-revalidate';

/** What the hooks and the read's handler leave on a request for the onSend hook. */
interface CatalogRead {
  /** The cache's generation when the request arrived, before the database was read. */
  generation: number;
  /** Set by a public catalog read (`markCatalogRead`): its answer may be cached. */
  productIds?: readonly string[];
}

const CATALOG_READ = Symbol('catalogRead');
const PRODUCTS_PATH = '/api/products';
type MarkedRequest = FastifyRequest & { [CATALOG_READ]?: CatalogRead };

/** Marks a request as a public catalog read whose answer may be cached and gets validators. */
export function markCatalogRead(request: FastifyRequest, productIds: readonly string[]): void {
  const read = (request as MarkedRequest)[CATALOG_READ];
  if (read) read.productIds = productIds;
}

// The same negotiation @fastify/compress makes for the other answers: the highest q-value wins, ties go to
// brotli, then gzip. No cache of headers seen: a client chooses them, and the cache would be unbounded.
const encodings = new Negotiator<CachedEncoding>({ supportedValues: ['br', 'gzip', 'identity'] });

/** The encoding to send an answer in; small answers are sent as they are, as the services' compression does. */
export function chooseEncoding(acceptEncoding: string | undefined, bodyLength: number): CachedEncoding {
  if (!acceptEncoding || bodyLength < COMPRESS_THRESHOLD_BYTES) return 'identity';
  return encodings.negotiate(acceptEncoding) ?? 'identity';
}

/** If-None-Match against a weak ETag (weak comparison, RFC 9110 13.1.2). */
export function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const opaque = etag.replace(/^W\//, '');
  return ifNoneMatch.split(',').some((candidate) => {
    const tag = candidate.trim();
    return tag === '*' || tag.replace(/^W\//, '') === opaque;
  });
}

/**
 * The headers of a cached answer, and its status and bytes for this request: 304 when the client
 * holds it already, else the kept bytes in the encoding it prefers (compressed once, on first use).
 */
function prepare(
  request: FastifyRequest,
  reply: FastifyReply,
  answer: CachedAnswer,
  onCompressed: (added: number) => void,
): Buffer | null {
  void reply.header('cache-control', CATALOG_CACHE_CONTROL);
  void reply.header('etag', answer.etag);
  void reply.header('vary', 'Accept-Encoding');
  for (const [name, value] of Object.entries(answer.headers)) void reply.header(name, value);
  if (matchesEtag(request.headers['if-none-match'], answer.etag)) {
    void reply.code(304);
    reply.removeHeader('content-type');
    reply.removeHeader('content-length');
    return null;
  }
  const encoding = chooseEncoding(request.headers['accept-encoding'], answer.body.length);
  const hadForm = encoding === 'identity' || answer[encoding] !== undefined;
  const bytes = encodedBody(answer, encoding);
  if (!hadForm) onCompressed(bytes.length);
  void reply.header('content-type', 'application/json; charset=utf-8');
  if (encoding !== 'identity') void reply.header('content-encoding', encoding);
  void reply.header('content-length', bytes.length);
  return bytes;
}

/**
 * Fastify hooks serving public catalog reads from memory. `onRequest` answers a cached URL before
 * NestJS routes, validates or serialises anything, and otherwise notes the cache's generation, so a
 * change that lands during the read keeps its answer out of the cache; `onSend` keeps the bytes a
 * marked read was serialised to (once) and gives every public read its validators, cached or not.
 */
export function catalogHooks(cache: CatalogCache, flags: FeatureFlags) {
  /** Answers a cached URL, or notes the generation and lets the read go on. */
  const answerFromCache = (request: FastifyRequest, reply: FastifyReply, done: () => void): void => {
    const answer = cache.get(request.url);
    if (!answer) {
      (request as MarkedRequest)[CATALOG_READ] = { generation: cache.generation };
      return done();
    }
    const url = request.url;
    const bytes = prepare(request, reply, answer, (added) => cache.grew(url, answer, added));
    // A 304 sends no payload at all: `send(null)` would serialise JSON `null` and announce
    // `Content-Length: 4`, which HTTP clients (undici, so Node's fetch and the gateway) treat as a
    // broken answer and drop the connection over.
    void (bytes === null ? reply.send() : reply.send(bytes));
  };

  return {
    onRequest(request: FastifyRequest, reply: FastifyReply, done: () => void): void {
      if (request.method !== 'GET') return done();
      if (!request.url.startsWith(PRODUCTS_PATH)) return answerFromCache(request, reply, done);
      // The fault flag `catalogReadDelay` slows every catalogue read, answered from memory or not.
      const go = () => answerFromCache(request, reply, done);
      flags.delay('catalogReadDelay').then(go, go);
    },

    onSend(
      request: FastifyRequest,
      reply: FastifyReply,
      payload: unknown,
      done: (error: null, payload?: unknown) => void,
    ): void {
      const read = (request as MarkedRequest)[CATALOG_READ];
      if (!read?.productIds || reply.statusCode !== 200 || typeof payload !== 'string')
        return done(null, payload);
      const total = reply.getHeader(TOTAL_COUNT_HEADER);
      const answer = makeAnswer(
        Buffer.from(payload),
        total === undefined ? {} : { [TOTAL_COUNT_HEADER]: String(total) },
        read.productIds,
      );
      const url = request.url;
      const kept = cache.store(url, answer, read.generation);
      done(
        null,
        prepare(request, reply, answer, (added) => {
          if (kept) cache.grew(url, answer, added);
        }),
      );
    },
  };
}
