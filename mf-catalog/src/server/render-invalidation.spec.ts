// @vitest-environment node
import {
  CATALOG_CHANGED,
  EVENTS_STREAM,
  PRODUCTS_API,
  PRODUCT_UPDATED,
  SETTINGS_UPDATED,
  SITE_SETTINGS_API,
  eventSubject,
} from '@shop/contracts';
import { type EmbeddedNats, startEmbeddedNats, until } from '@shop/testing';
import { listen, type RunningServer } from '@shop/ui/server';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JSONCodec, type NatsConnection, connect } from 'nats';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { testProduct } from '../testing/products';
import { RenderCache } from './render-cache';
import type { Fragment } from './render-fragment';
import { followCatalogChanges, type RenderInvalidation } from './render-invalidation';

vi.hoisted(() => {
  (globalThis as { __REMOTE_VERSION__?: string }).__REMOTE_VERSION__ = '7.7.7-test';
});
const { startRenderServer } = await import('./render-server');

// A real nats-server with JetStream, and the events stream the services create.
let nats: EmbeddedNats;
let storeDir: string;
let client: NatsConnection;
const codec = JSONCodec();

async function ensureStream(connection: NatsConnection) {
  const manager = await connection.jetstreamManager();
  await manager.streams.add({ name: EVENTS_STREAM, subjects: [eventSubject('>')] }).catch(() => undefined);
}

beforeAll(async () => {
  storeDir = mkdtempSync(join(tmpdir(), 'render-nats-'));
  nats = await startEmbeddedNats({ storeDir });
  client = await connect({ servers: nats.url });
  await ensureStream(client);
}, 60_000);

afterAll(async () => {
  await client?.close();
  await nats?.stop();
  rmSync(storeDir, { recursive: true, force: true });
});

const fragment = (id: string): Fragment => ({
  version: '1',
  status: 200,
  head: '',
  html: `<p>${id}</p>`,
  answers: {
    [`${PRODUCTS_API}/slug/${id}`]: { ok: true as const, status: 200, data: testProduct({ _id: id }) },
  },
});

describe('followCatalogChanges', () => {
  let cache: RenderCache;
  let invalidation: RenderInvalidation | undefined;
  afterEach(async () => invalidation?.close());

  /** Two screens kept: one showing p1, one showing p2. */
  async function twoKept() {
    cache.dropAll();
    await cache.fragment('p1', async () => fragment('p1'));
    await cache.fragment('p2', async () => fragment('p2'));
    expect(cache.size).toBe(2);
  }

  it('turns the cache on once it follows, and drops what each announced change touches', async () => {
    cache = new RenderCache();
    invalidation = followCatalogChanges(cache, nats.url, () => undefined);
    await until(() => cache.isEnabled);

    // Stock of p2 taken by an order: only the screen showing p2 goes.
    await twoKept();
    client.publish(CATALOG_CHANGED, codec.encode({ productIds: ['p2'] }));
    await until(() => cache.size === 1);
    expect((await cache.fragment('p1', async () => fragment('p1'))).status).toBe('hit');

    // An admin's edit (no ids): everything goes.
    await twoKept();
    client.publish(CATALOG_CHANGED, codec.encode({}));
    await until(() => cache.size === 0);

    // A message it cannot read: everything goes, as it cannot tell what changed.
    await twoKept();
    client.publish(CATALOG_CHANGED, new TextEncoder().encode('not json'));
    await until(() => cache.size === 0);

    // The admins' events in JetStream: a product edited, the site settings changed.
    const js = client.jetstream();
    for (const type of [PRODUCT_UPDATED, SETTINGS_UPDATED]) {
      await twoKept();
      await js.publish(eventSubject(type), codec.encode({ type }));
      await until(() => cache.size === 0);
    }
    expect(cache.isEnabled).toBe(true);
  }, 30_000);

  it('keeps nothing while NATS is away, and follows again when it is back', async () => {
    cache = new RenderCache();
    invalidation = followCatalogChanges(cache, nats.url, () => undefined);
    await until(() => cache.isEnabled);
    await twoKept();
    const port = nats.port;
    await nats.stop();
    await until(() => !cache.isEnabled, 15_000);
    expect(cache.size).toBe(0);
    expect((await cache.fragment('p1', async () => fragment('p1'))).status).toBe('off');

    nats = await startEmbeddedNats({ storeDir, port });
    await client.close();
    client = await connect({ servers: nats.url });
    await ensureStream(client);
    await until(() => cache.isEnabled, 20_000);
    await twoKept();
    client.publish(CATALOG_CHANGED, codec.encode({ productIds: ['p1'] }));
    await until(() => cache.size === 1);
  }, 60_000);
});

describe('the render service with its cache', () => {
  let api: RunningServer & { reads: () => number };
  let server: Awaited<ReturnType<typeof startRenderServer>>;
  let price = 100;

  beforeAll(async () => {
    let reads = 0;
    const product = () => testProduct({ _id: 'p7', slug: 'glock-17', price });
    const running = await listen(
      async (req, res) => {
        reads += 1;
        const body = req.url === SITE_SETTINGS_API ? [] : product();
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify(body));
      },
      { port: 0, host: '127.0.0.1', failure: 'stand-in failed' },
    );
    api = { ...running, reads: () => reads };
    server = await startRenderServer({
      apiUrl: api.url,
      natsUrl: nats.url,
      host: '127.0.0.1',
      log: () => undefined,
    });
    await until(() => server.cache.isEnabled, 20_000);
  }, 30_000);

  afterAll(async () => {
    await server?.close();
    await api?.close();
  });

  const ask = (headers: Record<string, string> = {}) =>
    fetch(
      `${server.url}/fragment?${new URLSearchParams({
        screen: 'ProductPage',
        route: '/product/:slug',
        url: '/product/glock-17',
        origin: 'https://shop.example.com',
      })}`,
      { headers },
    );

  it('renders a screen once, answers it again from memory, and 304 to the tag the page server holds', async () => {
    const first = await ask();
    expect(first.status).toBe(200);
    expect(first.headers.get('x-render-cache')).toBe('miss');
    const tag = first.headers.get('etag')!;
    expect(tag).toMatch(/^".+"$/);
    const readsAfterFirst = api.reads();
    expect(readsAfterFirst).toBeGreaterThan(0);

    const second = await ask();
    expect(second.headers.get('x-render-cache')).toBe('hit');
    expect(await second.text()).toBe(await first.text());
    const unchanged = await ask({ 'If-None-Match': tag });
    expect(unchanged.status).toBe(304);
    expect(api.reads()).toBe(readsAfterFirst);

    // The product's stock changes: the next request renders it again, from what the services say now.
    price = 250;
    client.publish(CATALOG_CHANGED, codec.encode({ productIds: ['p7'] }));
    await until(() => server.cache.size === 0);
    const changed = await ask({ 'If-None-Match': tag });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('x-render-cache')).toBe('miss');
    expect(changed.headers.get('etag')).not.toBe(tag);
    expect((await changed.json()).html).toContain('250.00');
    expect(api.reads()).toBeGreaterThan(readsAfterFirst);
  }, 30_000);
});
