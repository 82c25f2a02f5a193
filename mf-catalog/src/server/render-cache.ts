// The render service's cache of rendered screens (docs/rendering.md, "Cache"): kept per request (screen,
// route, URL, origin, position) in this process, which renders one catalog version. What the catalogue
// shows changing drops entries at once (render-invalidation.ts follows it over NATS); time only
// revalidates: an entry past its freshness is served while it is rendered again in the background.
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Fragment } from './render-fragment';

/** How a fragment was answered: from the cache, rendered for this request, or with the cache off. */
export type RenderCacheStatus = 'hit' | 'stale' | 'miss' | 'off';

/** A rendered screen as it is sent: the fragment's JSON, its validator and what it showed. */
export interface RenderedFragment {
  /** The fragment as JSON, serialised once. */
  body: string;
  /** A strong validator of `body`, for the page server's conditional requests. */
  etag: string;
  /** Ids of the products the screen showed: a change of their stock drops it. */
  productIds: ReadonlySet<string>;
  renderedAt: number;
}

/** How long an entry is served as it is by default, when no change dropped it sooner (RENDER_CACHE_FRESH_MS). */
export const RENDER_CACHE_FRESH_MS = 60_000;

export interface RenderCacheOptions {
  /** How long an entry is served as it is. Changes the events announce drop it sooner. */
  freshForMs?: number;
  /** Past that, how long it may still be served while it is rendered again in the background. */
  staleWhileRevalidateMs?: number;
  /** The most bytes of fragment JSON kept; the least recently used go first. */
  maxBytes?: number;
  now?: () => number;
}

/** Every `_id` the answers hold, at any depth: the products (and categories) the screen was drawn from. */
export function idsIn(value: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(value)) {
    for (const item of value) idsIn(item, into);
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (key === '_id' && typeof item === 'string') into.add(item);
      else idsIn(item, into);
    }
  }
  return into;
}

export function renderedFragment(fragment: Fragment, renderedAt: number): RenderedFragment {
  const body = JSON.stringify(fragment);
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`;
  return { body, etag, productIds: idsIn(fragment.answers), renderedAt };
}

/**
 * A render to answer with but not keep: it lacks what a later render will have (its screen's stylesheets,
 * while this version's manifest cannot be read).
 */
export class UnkeptFragment {
  constructor(readonly fragment: Fragment) {}
}

type Render = () => Promise<Fragment | UnkeptFragment>;

const fragmentOf = (result: Fragment | UnkeptFragment) =>
  result instanceof UnkeptFragment ? result.fragment : result;

/**
 * Rendered fragments by request. Off until `setEnabled(true)`: the invalidation says when it follows every
 * change, and turns it off (dropping everything) whenever it may miss one. A render that began before a
 * change is never stored, and concurrent requests for one entry share one render.
 */
export class RenderCache {
  private readonly entries: LRUCache<string, RenderedFragment>;
  private readonly rendering = new Map<string, Promise<RenderedFragment>>();
  private readonly freshForMs: number;
  private readonly staleWhileRevalidateMs: number;
  private readonly now: () => number;
  /** Bumped by every drop: a render that began under an older generation may hold what changed. */
  private generation = 0;
  private enabled = false;

  constructor(options: RenderCacheOptions = {}) {
    this.freshForMs = options.freshForMs ?? RENDER_CACHE_FRESH_MS;
    this.staleWhileRevalidateMs = options.staleWhileRevalidateMs ?? 300_000;
    this.now = options.now ?? Date.now;
    this.entries = new LRUCache<string, RenderedFragment>({
      maxSize: options.maxBytes ?? 64 * 1024 * 1024,
      sizeCalculation: (entry) => Math.max(1, entry.body.length),
    });
  }

  get size(): number {
    return this.entries.size;
  }

  get isEnabled(): boolean {
    return this.enabled;
  }

  setEnabled(enabled: boolean): void {
    if (enabled === this.enabled) return;
    this.enabled = enabled;
    this.dropAll();
  }

  /** Anything may have changed (a product edited, added or removed, the site settings). */
  dropAll(): void {
    this.generation += 1;
    this.rendering.clear();
    this.entries.clear();
  }

  /** The stock of these products changed: drop the screens that showed any of them. */
  dropProducts(productIds: readonly string[]): void {
    this.generation += 1;
    this.rendering.clear();
    const changed = new Set(productIds);
    for (const [key, entry] of this.entries.entries()) {
      for (const id of entry.productIds) {
        if (changed.has(id)) {
          this.entries.delete(key);
          break;
        }
      }
    }
  }

  /** The fragment for `key`: kept, kept but old (rendered again behind it), or rendered now by `render`. */
  async fragment(
    key: string,
    render: Render,
  ): Promise<{ rendered: RenderedFragment; status: RenderCacheStatus }> {
    if (!this.enabled)
      return { rendered: renderedFragment(fragmentOf(await render()), this.now()), status: 'off' };
    const kept = this.entries.get(key);
    if (kept) {
      const age = this.now() - kept.renderedAt;
      if (age < this.freshForMs) return { rendered: kept, status: 'hit' };
      if (age < this.freshForMs + this.staleWhileRevalidateMs) {
        // A failed revalidation leaves the entry as it is; the next request past it tries again.
        this.renderOnce(key, render).catch(() => undefined);
        return { rendered: kept, status: 'stale' };
      }
      this.entries.delete(key);
    }
    return { rendered: await this.renderOnce(key, render), status: 'miss' };
  }

  private renderOnce(key: string, render: Render): Promise<RenderedFragment> {
    const running = this.rendering.get(key);
    if (running) return running;
    const generation = this.generation;
    const started = this.now();
    const promise = render()
      .then((result) => {
        const rendered = renderedFragment(fragmentOf(result), started);
        const keep = !(result instanceof UnkeptFragment);
        if (keep && this.enabled && this.generation === generation) this.entries.set(key, rendered);
        return rendered;
      })
      .finally(() => {
        if (this.rendering.get(key) === promise) this.rendering.delete(key);
      });
    this.rendering.set(key, promise);
    return promise;
  }
}
