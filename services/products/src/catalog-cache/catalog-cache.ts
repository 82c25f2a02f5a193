import { createHash } from 'node:crypto';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';

/** How a cached answer may be sent: as JSON bytes, or compressed once and kept. */
export type CachedEncoding = 'identity' | 'br' | 'gzip';

/** One public catalogue answer, serialised once: every hit sends these very bytes. */
export interface CachedAnswer {
  /** The JSON body. */
  readonly body: Buffer;
  /** A weak validator of the body: the same for every encoding of it. */
  readonly etag: string;
  /** Headers the handler set besides the body (X-Total-Count of a list). */
  readonly headers: Readonly<Record<string, string>>;
  /** The products this answer shows: a stock change of one of them drops it. */
  readonly productIds: readonly string[];
  /** Compressed forms, made on the first request asking for each. */
  br?: Buffer;
  gzip?: Buffer;
}

interface Kept {
  readonly answer: CachedAnswer;
  readonly storedAt: number;
}

export interface CatalogCacheLimits {
  /** Most answers kept; 0 turns the cache off (answers still get their ETag). */
  maxEntries: number;
  /** Most bytes kept, counting compressed forms. */
  maxBytes: number;
  /** An answer older than this is read again: a backstop, invalidation is what keeps answers fresh. */
  maxAgeMs: number;
}

// Below this size compressing costs more than it saves, as @fastify/compress judges it.
export const COMPRESS_THRESHOLD_BYTES = 1024;
// Compressed once per answer, so a higher quality than on-the-fly compression pays off.
const BROTLI_OPTIONS = { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 9 } };
const GZIP_OPTIONS = { level: 9 };

/** Makes a cacheable answer of JSON bytes as they were serialised (once), with its validator. */
export function makeAnswer(
  body: Buffer,
  headers: Record<string, string>,
  productIds: readonly string[],
): CachedAnswer {
  const digest = createHash('sha1').update(body).digest('base64url').slice(0, 22);
  return { body, etag: `W/"${body.length.toString(36)}-${digest}"`, headers, productIds };
}

/** The bytes of an answer in an encoding, compressing (and keeping) them on first use. */
export function encodedBody(answer: CachedAnswer, encoding: CachedEncoding): Buffer {
  if (encoding === 'br') return (answer.br ??= brotliCompressSync(answer.body, BROTLI_OPTIONS));
  if (encoding === 'gzip') return (answer.gzip ??= gzipSync(answer.body, GZIP_OPTIONS));
  return answer.body;
}

const sizeOf = (answer: CachedAnswer) =>
  answer.body.length + (answer.br?.length ?? 0) + (answer.gzip?.length ?? 0);

/**
 * Public catalogue answers by request URL, bounded in entries and bytes (least recently used go
 * first). Invalidation: `dropAll` when the catalogue changed (a product created, edited or
 * deleted may enter or leave any list), `dropProducts` when only stock changed (lists keep their
 * members, only the answers showing those products are stale). Every drop advances a generation,
 * and a fill that began before it is not stored, so a read racing a change never caches the old state.
 */
export class CatalogCache {
  private readonly answers = new Map<string, Kept>();
  /** Product id → URLs of the answers showing it. */
  private readonly byProduct = new Map<string, Set<string>>();
  private bytes = 0;
  private currentGeneration = 0;
  private enabled = false;

  constructor(
    private readonly limits: CatalogCacheLimits,
    private readonly now: () => number = Date.now,
  ) {}

  /** Answers are kept only while invalidation is known to work (the replica follows the changes). */
  setEnabled(enabled: boolean): void {
    if (!enabled) this.dropAll();
    this.enabled = enabled && this.limits.maxEntries > 0;
  }

  get isEnabled(): boolean {
    return this.enabled;
  }

  /** Taken before reading the database; `store` refuses a fill whose generation has passed. */
  get generation(): number {
    return this.currentGeneration;
  }

  get size(): number {
    return this.answers.size;
  }

  get sizeInBytes(): number {
    return this.bytes;
  }

  get(url: string): CachedAnswer | undefined {
    if (!this.enabled) return undefined;
    const kept = this.answers.get(url);
    if (!kept) return undefined;
    if (this.now() - kept.storedAt > this.limits.maxAgeMs) {
      this.remove(url);
      return undefined;
    }
    // Map order is insertion order: moving the hit to the end keeps the least recently used first.
    this.answers.delete(url);
    this.answers.set(url, kept);
    return kept.answer;
  }

  /** Keeps an answer read while the generation was `generation`; answers whether it was kept. */
  store(url: string, answer: CachedAnswer, generation: number): boolean {
    if (!this.enabled || generation !== this.currentGeneration) return false;
    if (answer.body.length > this.limits.maxBytes / 4) return false;
    this.remove(url);
    this.answers.set(url, { answer, storedAt: this.now() });
    this.bytes += sizeOf(answer);
    for (const id of answer.productIds) {
      let urls = this.byProduct.get(id);
      if (!urls) this.byProduct.set(id, (urls = new Set()));
      urls.add(url);
    }
    this.evict();
    return true;
  }

  /** Counts the compressed form an answer just gained, evicting if the cache grew past its bound. */
  grew(url: string, answer: CachedAnswer, added: number): void {
    if (this.answers.get(url)?.answer !== answer) return;
    this.bytes += added;
    this.evict();
  }

  dropAll(): void {
    this.currentGeneration += 1;
    this.answers.clear();
    this.byProduct.clear();
    this.bytes = 0;
  }

  dropProducts(productIds: Iterable<string>): void {
    this.currentGeneration += 1;
    for (const id of productIds) {
      for (const url of this.byProduct.get(id) ?? []) this.remove(url);
      this.byProduct.delete(id);
    }
  }

  private evict(): void {
    for (const url of this.answers.keys()) {
      if (this.answers.size <= this.limits.maxEntries && this.bytes <= this.limits.maxBytes) return;
      this.remove(url);
    }
  }

  private remove(url: string): void {
    const answer = this.answers.get(url)?.answer;
    if (!answer) return;
    this.answers.delete(url);
    this.bytes -= sizeOf(answer);
    for (const id of answer.productIds) {
      const urls = this.byProduct.get(id);
      urls?.delete(url);
      if (urls?.size === 0) this.byProduct.delete(id);
    }
  }
}
